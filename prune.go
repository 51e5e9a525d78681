package mneme

import (
	"context"
	"time"
)

// PruneRequest deletes the records a filter selects, as forget does, with
// two more filters: statuses and expired. The project only scopes it:
// with no other filter a prune is refused, and so is one whose selection
// holds every current record (not superseded, expired or a draft) of a
// project,
// so it never empties a project by accident (forget by name does that on
// purpose).
type PruneRequest struct {
	ForgetFilter
	Statuses []Status `json:"statuses,omitempty"` // any of, like draft or superseded
	Expired  bool     `json:"expired,omitempty"`  // whose TTL ran out
	DryRun   bool     `json:"dry_run,omitempty"`
}

// PruneResult says what a prune deleted, or would in a dry run.
type PruneResult struct {
	Pruned int      `json:"pruned"`
	DryRun bool     `json:"dry_run"`
	IDs    []string `json:"ids"`
}

// Check validates req as Prune would, without touching a store.
func (req *PruneRequest) Check(now time.Time) error {
	_, err := req.filter(now)
	return err
}

func (req *PruneRequest) filter(now time.Time) (*Filter, error) {
	scope := req.ForgetFilter
	scope.Project = ""
	if scope.empty() && len(req.Statuses) == 0 && !req.Expired {
		return nil, Invalid("say what to prune: {{expired=true}}, {{statuses}}, {{types}}, {{kinds}}, {{tags}}, {{before}} or {{key}}; a project alone is no filter (prune never empties a project: forget it by name)")
	}
	f, err := req.ForgetFilter.filter(now)
	if err != nil {
		return nil, err
	}
	f.Statuses, f.Expired = req.Statuses, req.Expired
	return f, f.Check()
}

// Prune deletes the records req selects, with their promotion histories
// (kept in the records), in one transaction: forget's filter path, which
// the caller's scope narrows as it does forget's.
func (e *Engine) Prune(ctx context.Context, req PruneRequest) (PruneResult, error) {
	if err := ScopeFrom(ctx).mustWrite("prune"); err != nil {
		return PruneResult{}, err
	}
	f, err := req.filter(e.Now())
	if err != nil {
		return PruneResult{}, err
	}
	ids, err := e.forgetWhere(ctx, *f, true)
	if err != nil {
		return PruneResult{}, err
	}
	if err := e.keepsEveryProject(ctx, *f); err != nil {
		return PruneResult{}, err
	}
	if !req.DryRun && len(ids) > 0 {
		if _, err := e.store.Delete(ctx, ids); err != nil {
			return PruneResult{}, err
		}
	}
	out := forgot(ids, req.DryRun)
	return PruneResult{Pruned: out.Forgotten, DryRun: out.DryRun, IDs: out.IDs}, nil
}

// keepsEveryProject refuses a prune whose filter f selects every current
// record of a project (not superseded, not expired, not a draft): that
// would empty the project, which only forget by name does. Drafts do not
// count, so pruning drafts is never refused.
func (e *Engine) keepsEveryProject(ctx context.Context, f Filter) error {
	current, selected := map[string]int{}, map[string]int{}
	var order []string
	err := e.Each(ctx, Filter{Project: f.Project, Clearance: f.Clearance}, func(r *Record) error {
		if r.Status == Draft {
			return nil
		}
		if current[r.Project] == 0 {
			order = append(order, r.Project)
		}
		current[r.Project]++
		if f.Match(r) {
			selected[r.Project]++
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range order {
		if selected[p] == current[p] {
			return Invalid("this prune selects every current record of project %q (%d, drafts aside): prune never empties a project; narrow the filter, or forget the project by name (mneme forget --project %s) if that is what you mean", p, current[p], p)
		}
	}
	return nil
}
