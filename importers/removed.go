package importers

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Removed returns the ids of the records an earlier import in format made
// from in's files (by their names) that recs, the files as they are now,
// no longer hold: a section taken out of a memory file. Forgetting them
// leaves exactly the files' current sections. Only records the caller may
// read are looked at (the scope in ctx applies), and only those of the
// files imported now: a file left out of this import keeps its records.
func Removed(ctx context.Context, eng *mneme.Engine, format string, in Input, recs []*mneme.Record) ([]string, error) {
	if in.Project == "" {
		return nil, nil // records name their project: without one, none is this import's
	}
	files := make(map[string]bool, len(in.Files))
	for _, f := range in.Files {
		files[f.Name] = true
	}
	current := make(map[string]bool, len(recs))
	for _, r := range recs {
		current[r.ID] = true
	}
	f := mneme.Filter{Project: in.Project, Meta: []mneme.MetaMatch{{Key: "source_format", Value: format}},
		Clearance: mneme.ScopeFrom(ctx).Reads()}
	var gone []string
	err := eng.Each(ctx, f, func(r *mneme.Record) error {
		if r.Source != nil && files[r.Source.URI] && !current[r.ID] {
			gone = append(gone, r.ID)
		}
		return nil
	})
	return gone, err
}
