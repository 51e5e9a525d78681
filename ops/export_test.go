package ops

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// ReadRecords is Read as it was before the timeline read: every whole
// record through List, each converted — the benchmark's baseline.
func ReadRecords(ctx context.Context, eng *mneme.Engine, q Query) (int, error) {
	f := q.filter(eng.Now())
	f.Clearance = mneme.ScopeFrom(ctx).Reads()
	n := 0
	err := eng.Each(ctx, f, func(r *mneme.Record) error {
		if _, ok := fromRecord(r); ok {
			n++
		}
		return nil
	})
	return n, err
}
