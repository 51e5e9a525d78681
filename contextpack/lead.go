package contextpack

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// AssembleLed is Assemble with the project's lead newest facts and
// how-tos (semantic and procedural records, not summaries) fitted first,
// then q's hits (one already led is not shown twice): a session start
// shows what people stored for the project whatever words it shares with
// its query. q must name a project. Cached like Assemble: at one write
// generation the lead is the same.
func AssembleLed(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget, lead int) (*Package, error) {
	if lead < 0 || lead > mneme.MaxK/4 {
		return nil, mneme.Invalid("lead %d is out of range: use 0 to %d", lead, mneme.MaxK/4)
	}
	if lead > 0 && q.Filter.Project == "" {
		return nil, mneme.Invalid("a package led by a project's facts needs the project")
	}
	return assembleKept(ctx, eng, q, budget, 0, lead)
}

// leadHits are the project's n newest facts and how-tos as hits, newest
// first; summaries are left to the recall.
func leadHits(ctx context.Context, eng *mneme.Engine, project string, n int) ([]mneme.Hit, error) {
	recs, _, err := eng.List(ctx, mneme.Filter{Project: project, Types: []mneme.Type{mneme.Semantic, mneme.Procedural}}, 4*n, "")
	if err != nil {
		return nil, err
	}
	var hits []mneme.Hit
	for _, r := range recs {
		if len(hits) < n && r.Kind != "summary" {
			hits = append(hits, mneme.Hit{ID: r.ID, Score: 1, Record: r})
		}
	}
	return hits, nil
}
