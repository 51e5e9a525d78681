package mneme

import "context"

// hideDerived makes secret every record derived from a secret one among
// recs, and those derived from them in turn: a summary or a promoted fact
// must not quote to internal readers what its source now keeps from them.
// It is the Engine's rule, not the caller's: it reaches derived records in
// any project, whoever wrote the source.
func (e *Engine) hideDerived(ctx context.Context, recs []*Record) error {
	var queue []string
	for _, r := range recs {
		if r.Sensitivity == Secret {
			queue = append(queue, r.ID)
		}
	}
	ctx = WithScope(ctx, Owner)
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		f := Filter{DerivedFrom: id, IncludeSuperseded: true, IncludeExpired: true, Clearance: Internal, Now: e.Now()}
		for {
			derived, _, err := e.store.List(ctx, f, MaxK, "")
			if err != nil {
				return err
			}
			if len(derived) == 0 {
				break // every one is secret now
			}
			for _, d := range derived {
				d.Sensitivity, d.UpdatedAt = Secret, e.Now()
				queue = append(queue, d.ID)
			}
			if _, err := e.store.Put(ctx, derived, ModeImport, e.Now()); err != nil {
				return err
			}
		}
	}
	return nil
}
