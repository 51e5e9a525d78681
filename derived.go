package mneme

import (
	"context"
	"slices"
)

// hideDerived makes secret every record derived from a secret one among
// recs, and those derived from them in turn: a summary or a promoted fact
// must not quote to internal readers what its source now keeps from them.
// It is the Engine's rule, not the caller's: it reaches derived records in
// any project, whoever wrote the source. Only a write that may have made
// an existing record secret, or that brings ids other records may already
// link to (an import), can have any: a remembered new record has a new id.
func (e *Engine) hideDerived(ctx context.Context, recs []*Record, mode WriteMode, res WriteResult) error {
	secret := map[string]bool{}
	for _, r := range recs {
		if r.Sensitivity == Secret {
			secret[r.ID] = true
		}
	}
	if len(secret) == 0 || mode == ModeRemember && res.Updated == 0 {
		return nil
	}
	ctx = WithScope(ctx, Owner)
	for raised := true; raised; {
		var derived []*Record
		f := Filter{Derived: true, IncludeSuperseded: true, IncludeExpired: true, Clearance: Internal}
		err := e.Each(ctx, f, func(r *Record) error {
			if slices.ContainsFunc(r.Links, func(l Link) bool { return l.Type == LinkDerivedFrom && secret[l.Target] }) {
				derived = append(derived, r)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, d := range derived {
			d.Sensitivity, d.UpdatedAt = Secret, e.Now()
			secret[d.ID] = true
		}
		if raised = len(derived) > 0; raised {
			if _, err := e.store.Put(ctx, derived, ModeImport, e.Now()); err != nil {
				return err
			}
		}
	}
	return nil
}
