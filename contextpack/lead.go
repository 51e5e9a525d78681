package contextpack

import (
	"context"
	"time"

	"github.com/mneme-ai/mneme"
)

// AssembleLed is Assemble with lead records fitted first, in their order,
// then q's hits (one already led is not shown twice): a session start
// shows the project's own facts whatever words they share with its query.
// Not cached, since the lead is read anew each time.
func AssembleLed(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget int, lead []*mneme.Record) (*Package, error) {
	if len(lead) == 0 {
		return Assemble(ctx, eng, q, budget)
	}
	start := time.Now()
	if err := eng.CheckQuery(ctx, &q); err != nil {
		return nil, err
	}
	pkg, _, err := assemble(ctx, eng, q, budget, mneme.CacheStatus{}, lead)
	if err != nil {
		return nil, err
	}
	pkg.TookMS = ms(time.Since(start))
	return pkg, nil
}
