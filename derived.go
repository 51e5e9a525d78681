package mneme

import (
	"slices"
	"time"
)

// RaiseDerived is the rule that a summary or a promoted fact must not
// quote to internal readers what its source now keeps from them: every
// record derived from a secret one among recs (a derived_from link), and
// those derived from them in turn, becomes secret. It reaches derived
// records in any project, whoever wrote the source.
//
// Stores apply it inside the transaction of every Put, after the write:
// no moment (a crash) leaves a source secret and its summary readable.
// derivedFrom reads the records with a derived_from link to any of ids
// (through the store's index of link targets: only the records deriving
// from the newly secret ones are read). RaiseDerived returns those it
// raised, with their sensitivity and update time set, for the store to
// write. Only a write that may have made an existing record secret, or
// that brings ids other records may already link to (an import), can
// have any: a remembered new record has a new id.
func RaiseDerived(recs []*Record, mode WriteMode, res WriteResult, now time.Time, derivedFrom func(ids []string) ([]*Record, error)) ([]*Record, error) {
	secret := map[string]bool{}
	var frontier []string
	for _, r := range recs {
		if r.Sensitivity == Secret && !secret[r.ID] {
			secret[r.ID] = true
			frontier = append(frontier, r.ID)
		}
	}
	if len(frontier) == 0 || mode == ModeRemember && res.Updated == 0 {
		return nil, nil
	}
	var raised []*Record
	for len(frontier) > 0 {
		derived, err := derivedFrom(frontier)
		if err != nil {
			return nil, err
		}
		frontier = nil
		for _, d := range derived {
			if secret[d.ID] || !slices.ContainsFunc(d.Links, func(l Link) bool { return l.Type == LinkDerivedFrom && secret[l.Target] }) {
				continue
			}
			secret[d.ID] = true
			frontier = append(frontier, d.ID)
			if d.Sensitivity != Secret {
				d.Sensitivity, d.UpdatedAt = Secret, now
				raised = append(raised, d)
			}
		}
	}
	return raised, nil
}
