package mneme

import (
	"context"
	"time"
)

// ForgetFilter selects the records to forget; every surface takes the same
// fields (CLI flags, the MCP tool's parameters, the HTTP body's filter).
type ForgetFilter struct {
	Project string     `json:"project,omitempty"`
	Types   []Type     `json:"types,omitempty"`
	Kinds   []string   `json:"kinds,omitempty"`
	Tags    []string   `json:"tags,omitempty"`
	Before  string     `json:"before,omitempty"` // created before: RFC 3339, a date, or an age like 30d
	Key     string     `json:"key,omitempty"`    // every version of this key
	Meta    MetaFilter `json:"meta,omitempty"`   // records whose meta has every one of these values
}

func (f *ForgetFilter) empty() bool {
	return f.Project == "" && len(f.Types) == 0 && len(f.Kinds) == 0 && len(f.Tags) == 0 && f.Before == "" && f.Key == "" && len(f.Meta) == 0
}

// ForgetRequest names the records to forget: ids (all or none), or a
// filter. A dry run only says which.
type ForgetRequest struct {
	IDs []string
	ForgetFilter
	DryRun bool
}

// ForgetResult says what a forget did, or would do in a dry run.
type ForgetResult struct {
	Forgotten int      `json:"forgotten"`
	DryRun    bool     `json:"dry_run"`
	IDs       []string `json:"ids"`
}

// Check validates req as Forget would, without touching a store: a
// surface calls it to reject bad input before it opens one.
func (req *ForgetRequest) Check(now time.Time) error {
	_, err := req.filter(now)
	return err
}

// filter is the Filter req's filter fields select (nil for ids), checked.
func (req *ForgetRequest) filter(now time.Time) (*Filter, error) {
	switch {
	case len(req.IDs) > 0 && !req.empty():
		return nil, Invalid("give ids or a filter, not both")
	case len(req.IDs) > 0:
		for _, id := range req.IDs {
			if !ValidID(id) {
				return nil, Invalid("%q is not a record id", Clip(id))
			}
		}
		return nil, nil
	case req.empty():
		return nil, Invalid("no ids given: name the records to forget, or use a filter (project, type, kind, tags, before, key, meta); refusing to forget everything")
	}
	return req.ForgetFilter.filter(now)
}

// filter is the Filter ff selects among every record, superseded, expired
// and secret ones included (the caller's scope narrows it), checked.
func (ff *ForgetFilter) filter(now time.Time) (*Filter, error) {
	f := &Filter{Project: ff.Project, Types: ff.Types, Kinds: ff.Kinds, Tags: ff.Tags, Key: ff.Key, Meta: ff.Meta,
		Clearance: Secret, IncludeSuperseded: true, IncludeExpired: true, Now: now}
	if ff.Before != "" {
		t, err := ParseTime("before", ff.Before, now)
		if err != nil {
			return nil, err
		}
		f.Before = &t
	}
	return f, f.Check()
}

// Forget deletes the records req names, secret ones included when the
// caller's scope may read them; records it may not see are not found.
func (e *Engine) Forget(ctx context.Context, req ForgetRequest) (ForgetResult, error) {
	if err := ScopeFrom(ctx).mustWrite("forget"); err != nil {
		return ForgetResult{}, err
	}
	f, err := req.filter(e.Now())
	if err != nil {
		return ForgetResult{}, err
	}
	var ids []string
	if f == nil {
		ids, err = e.forgetIDs(ctx, req.IDs, req.DryRun)
	} else {
		ids, err = e.forgetWhere(ctx, *f, req.DryRun)
	}
	if err != nil {
		return ForgetResult{}, err
	}
	return forgot(ids, req.DryRun), nil
}

// forgot is the result of forgetting ids (or of a dry run).
func forgot(ids []string, dryRun bool) ForgetResult {
	out := ForgetResult{DryRun: dryRun, IDs: ids}
	if out.IDs == nil {
		out.IDs = []string{}
	}
	if !dryRun {
		out.Forgotten = len(ids)
	}
	return out
}

// forgetIDs deletes records by id, all or none; an id named twice counts once.
func (e *Engine) forgetIDs(ctx context.Context, ids []string, dryRun bool) ([]string, error) {
	seen := make(map[string]bool, len(ids))
	var unique []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	for _, id := range unique {
		if _, err := e.read(ctx, id, Secret); err != nil {
			if ErrorCode(err) == ENOTFOUND {
				err = Errorf(ENOTFOUND, "no record with id %s; nothing was forgotten", id)
			}
			return nil, err
		}
	}
	if dryRun {
		return unique, nil
	}
	_, err := e.store.Delete(ctx, unique)
	return unique, err
}

// forgetWhere deletes the records passing f and returns their ids.
func (e *Engine) forgetWhere(ctx context.Context, f Filter, dryRun bool) ([]string, error) {
	var ids []string
	err := e.Each(ctx, f, func(r *Record) error { ids = append(ids, r.ID); return nil })
	if err != nil || dryRun || len(ids) == 0 {
		return ids, err
	}
	_, err = e.store.Delete(ctx, ids)
	return ids, err
}
