package mneme

import "context"

// Relations of expanded records to the hit they were added for. A record
// reached by a typed link has the link's type as its relation
// (derived_from, relates_to, follows, supersedes).
const (
	RelBefore     = "before"     // the turn or chunk just before the hit
	RelAfter      = "after"      // just after it
	RelSupersedes = "supersedes" // an older version the hit replaced
)

// near is a record around a hit, and how it relates to it.
type near struct {
	r   *Record
	rel string
}

// expand adds after each hit up to q.Expand records around it: the
// records its typed links point to (derived_from, relates_to, follows:
// explicit edges first), its session's turns or its document's chunks
// (nearest first, alternating sides), then the versions it superseded. Expanded
// records keep their hit's score, are ones the caller may read, visible
// under the query's filter of project, clearance and expiry, and appear
// once.
// known holds records read already (the search's link targets), by id.
func (e *Engine) expand(ctx context.Context, q *Query, hits []Hit, known map[string]*Record) ([]Hit, error) {
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		seen[h.ID] = true
	}
	linked, err := e.getKnown(ctx, linkTargets(hitRecords(hits)), known)
	if err != nil {
		return nil, err
	}
	sc := ScopeFrom(ctx)
	visible := Filter{Project: q.Filter.Project, Clearance: q.Filter.Clearance, Now: q.Filter.Now,
		IncludeExpired: q.Filter.IncludeExpired, IncludeSuperseded: q.Filter.IncludeSuperseded}
	out := make([]Hit, 0, len(hits)*(1+q.Expand))
	for _, h := range hits {
		out = append(out, h)
		around, err := e.around(ctx, q, h.Record, linked)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, x := range around {
			if n == q.Expand {
				break
			}
			ok := visible.Match(x.r) || (x.rel == RelSupersedes && x.r.Visible(q.Filter.Clearance) &&
				(visible.Project == "" || x.r.Project == visible.Project)) // shown on purpose, though superseded
			if ok && sc.CanRead(x.r) && !seen[x.r.ID] {
				seen[x.r.ID] = true
				out = append(out, expandedHit(q, h, x.r, x.rel))
				n++
			}
		}
	}
	return out, nil
}

// around lists the records around r, in the order expand takes them:
// linked records (supersedes links aside), neighbours alternating sides,
// then superseded versions (by link, then by key).
func (e *Engine) around(ctx context.Context, q *Query, r *Record, linked map[string]*Record) ([]near, error) {
	var out, older []near
	for _, l := range r.Links {
		if t := linked[l.Target]; t != nil {
			if l.Type == LinkSupersedes {
				older = append(older, near{t, RelSupersedes})
			} else {
				out = append(out, near{t, l.Type})
			}
		}
	}
	before, after, err := e.store.Neighbours(ctx, r, q.Expand)
	if err != nil {
		return nil, err
	}
	for i := range max(len(before), len(after)) {
		if i < len(before) {
			out = append(out, near{before[i], RelBefore})
		}
		if i < len(after) {
			out = append(out, near{after[i], RelAfter})
		}
	}
	if r.Key != "" && r.Status != Superseded {
		versions, _, err := e.store.List(ctx, Filter{Project: r.Project, Key: r.Key, IncludeSuperseded: true,
			Clearance: q.Filter.Clearance, Now: q.Filter.Now}, q.Expand+1, "")
		if err != nil {
			return nil, err
		}
		for _, v := range versions {
			older = append(older, near{v, RelSupersedes})
		}
	}
	return append(out, older...), nil
}

func expandedHit(q *Query, from Hit, r *Record, rel string) Hit {
	h := Hit{ID: r.ID, Score: from.Score, Record: r, expandedFrom: from.ID, relation: rel}
	if q.Explain {
		h.Explain = &Explain{Retrieval: "expand", ExpandedFrom: from.ID, Relation: rel, MatchedTerms: []string{}, QueryTerms: []string{}}
	}
	return h
}
