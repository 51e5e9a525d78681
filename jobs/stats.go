package jobs

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Stats is the store's counts (mneme.Stats, as the caller may see them)
// and the last run of each job kind the caller may see: what stats shows
// on every surface.
type Stats struct {
	mneme.Stats
	LastJobs []Entry `json:"last_jobs"`
}

// StatsOf counts the records and reads the last run of each kind.
func StatsOf(ctx context.Context, eng *mneme.Engine) (Stats, error) {
	st, err := eng.Stats(ctx)
	if err != nil {
		return Stats{}, err
	}
	last, err := Last(ctx, eng)
	return Stats{Stats: st, LastJobs: last}, err
}
