package mneme

import "context"

// Relations of expanded records to the hit they were added for.
const (
	RelBefore     = "before"     // the turn or chunk just before the hit
	RelAfter      = "after"      // just after it
	RelSupersedes = "supersedes" // an older version the hit replaced
)

// expand adds after each hit up to q.Expand records around it (its
// session's turns or its document's chunks, nearest first, alternating
// sides) and the versions it superseded. Expanded records keep their hit's
// score, are visible under the query's clearance, and appear once.
func (e *Engine) expand(ctx context.Context, q *Query, hits []Hit) ([]Hit, error) {
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		seen[h.ID] = true
	}
	visible := Filter{Clearance: q.Filter.Clearance, Now: q.Filter.Now, IncludeExpired: q.Filter.IncludeExpired,
		IncludeSuperseded: q.Filter.IncludeSuperseded}
	out := make([]Hit, 0, len(hits)*(1+q.Expand))
	for _, h := range hits {
		out = append(out, h)
		before, after, err := e.store.Neighbours(ctx, h.Record, q.Expand)
		if err != nil {
			return nil, err
		}
		type near struct {
			r   *Record
			rel string
		}
		var around []near
		for i := range max(len(before), len(after)) {
			if i < len(before) {
				around = append(around, near{before[i], RelBefore})
			}
			if i < len(after) {
				around = append(around, near{after[i], RelAfter})
			}
		}
		if h.Record.Key != "" && h.Record.Status != Superseded {
			older, _, err := e.store.List(ctx, Filter{Project: h.Record.Project, Key: h.Record.Key, IncludeSuperseded: true,
				Clearance: q.Filter.Clearance, Now: q.Filter.Now}, q.Expand+1, "")
			if err != nil {
				return nil, err
			}
			for _, r := range older { // shown on purpose, though superseded
				around = append(around, near{r, RelSupersedes})
			}
		}
		n := 0
		for _, x := range around {
			ok := visible.Match(x.r) || (x.rel == RelSupersedes && x.r.Visible(q.Filter.Clearance))
			if n < q.Expand && ok && !seen[x.r.ID] {
				seen[x.r.ID] = true
				out = append(out, expandedHit(q, h, x.r, x.rel))
				n++
			}
		}
	}
	return out, nil
}

func expandedHit(q *Query, from Hit, r *Record, rel string) Hit {
	h := Hit{ID: r.ID, Score: from.Score, Record: r}
	if q.Explain {
		h.Explain = &Explain{Retrieval: "expand", ExpandedFrom: from.ID, Relation: rel, MatchedTerms: []string{}, QueryTerms: []string{}}
	}
	return h
}
