package ops

import (
	"context"
	"time"

	"github.com/mneme-ai/mneme"
)

// PruneRequest deletes the operational entries that happened before
// Before (required: retention never deletes by accident), optionally only
// one session's, in one transaction; a dry run only says which.
type PruneRequest struct {
	Project string
	Session string
	Before  *time.Time
	DryRun  bool
}

// Check validates req as Prune would.
func (req *PruneRequest) Check() error {
	if req.Before == nil {
		return mneme.Invalid("say what to prune: before is required (entries that happened before this time); add session to keep to one session")
	}
	f := req.filter(time.Time{})
	return f.Check()
}

func (req *PruneRequest) filter(now time.Time) mneme.Filter {
	until := req.Before.Add(-time.Nanosecond) // Until is inclusive, before is not
	f := mneme.Filter{Project: req.Project, SessionID: req.Session, Tags: []string{Tag}, Until: &until,
		IncludeSuperseded: true, IncludeExpired: true, Clearance: mneme.Secret, Now: now}
	for _, k := range Kinds {
		f.Kinds = append(f.Kinds, recordKind(k))
	}
	return f
}

// Prune deletes what req selects, every version of a session or run
// included, through the Engine (the caller's scope applies).
func Prune(ctx context.Context, eng *mneme.Engine, req PruneRequest) (mneme.PruneResult, error) {
	if err := req.Check(); err != nil {
		return mneme.PruneResult{}, err
	}
	var ids []string
	err := eng.Each(ctx, req.filter(eng.Now()), func(r *mneme.Record) error {
		if _, ok := fromRecord(r); ok {
			ids = append(ids, r.ID)
		}
		return nil
	})
	if err != nil {
		return mneme.PruneResult{}, err
	}
	out := mneme.PruneResult{DryRun: req.DryRun, IDs: ids}
	if out.IDs == nil {
		out.IDs = []string{}
	}
	if len(ids) == 0 || req.DryRun {
		return out, nil
	}
	res, err := eng.Forget(ctx, mneme.ForgetRequest{IDs: ids})
	if err != nil {
		return mneme.PruneResult{}, err
	}
	out.Pruned = res.Forgotten
	return out, nil
}
