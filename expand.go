package mneme

import (
	"context"
	"slices"
)

// Relations of expanded records to the hit they were added for. A record
// reached by a typed link has the link's type as its relation
// (derived_from, relates_to, follows, supersedes).
const (
	RelBefore     = "before"     // the turn or chunk just before the hit
	RelAfter      = "after"      // just after it
	RelSupersedes = "supersedes" // an older version the hit replaced
)

// DirIncoming is the direction of a record expansion added because it
// links to the hit (a summary derived from a source hit): its relation is
// that link's type. Records the hit's own links name have no direction.
const DirIncoming = "incoming"

// near is a record around a hit, and how it relates to it.
type near struct {
	r        *Record
	rel, dir string
}

// expand adds after each hit up to q.Expand records around it: the
// records its typed links point to (derived_from, relates_to, follows:
// explicit edges first), the records linking to it (incoming, in its
// project, when the store indexes links), its session's turns or its document's chunks
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
	incoming, err := e.incoming(ctx, hits, visible, q.Expand)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, 0, len(hits)*(1+q.Expand))
	for _, h := range hits {
		out = append(out, h)
		around, err := e.around(ctx, q, h.Record, linked, incoming[h.ID])
		if err != nil {
			return nil, err
		}
		n := 0
		for _, x := range around {
			if n == q.Expand {
				break
			}
			ok := visible.Match(x.r) || (x.rel == RelSupersedes && x.dir == "" && x.r.Visible(q.Filter.Clearance) &&
				(visible.Project == "" || x.r.Project == visible.Project)) // shown on purpose, though superseded
			ok = ok && (x.dir == "" || x.r.Project == h.Record.Project) // a linker from another project is not followed
			if ok && sc.CanRead(x.r) && !seen[x.r.ID] {
				seen[x.r.ID] = true
				out = append(out, expandedHit(q, h, x))
				n++
			}
		}
	}
	return out, nil
}

// around lists the records around r, in the order expand takes them:
// linked records (supersedes links aside), records linking to r (in),
// neighbours alternating sides, then superseded versions (by link, then
// by key).
func (e *Engine) around(ctx context.Context, q *Query, r *Record, linked map[string]*Record, in []near) ([]near, error) {
	var out, older []near
	for _, l := range r.Links {
		if t := linked[l.Target]; t != nil {
			if l.Type == LinkSupersedes {
				older = append(older, near{t, RelSupersedes, ""})
			} else {
				out = append(out, near{t, l.Type, ""})
			}
		}
	}
	out = append(out, in...)
	before, after, err := e.store.Neighbours(ctx, r, q.Expand)
	if err != nil {
		return nil, err
	}
	for i := range max(len(before), len(after)) {
		if i < len(before) {
			out = append(out, near{before[i], RelBefore, ""})
		}
		if i < len(after) {
			out = append(out, near{after[i], RelAfter, ""})
		}
	}
	if r.Key != "" && r.Status != Superseded {
		versions, _, err := e.store.List(ctx, Filter{Project: r.Project, Key: r.Key, IncludeSuperseded: true,
			Clearance: q.Filter.Clearance, Now: q.Filter.Now}, q.Expand+1, "")
		if err != nil {
			return nil, err
		}
		for _, v := range versions {
			older = append(older, near{v, RelSupersedes, ""})
		}
	}
	return append(out, older...), nil
}

func expandedHit(q *Query, from Hit, x near) Hit {
	h := Hit{ID: x.r.ID, Score: from.Score, Record: x.r, expandedFrom: from.ID, relation: x.rel, direction: x.dir}
	if q.Explain {
		h.Explain = &Explain{Retrieval: "expand", ExpandedFrom: from.ID, Relation: x.rel, Direction: x.dir,
			MatchedTerms: []string{}, QueryTerms: []string{}}
	}
	return h
}

// incoming reads, when the store indexes links (LinkIndex), up to per
// records linking to each hit, visible under f, by the hit's id. Supersedes
// links are left out: a newer version is its own record, not context.
func (e *Engine) incoming(ctx context.Context, hits []Hit, f Filter, per int) (map[string][]near, error) {
	li, ok := e.store.(LinkIndex)
	if !ok || len(hits) == 0 {
		return nil, nil
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	found, err := li.IncomingLinks(ctx, ids, f, per)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]near, len(found))
	for _, in := range found {
		if in.Rel != LinkSupersedes && slices.Contains(linkTypes, in.Rel) {
			out[in.Target] = append(out[in.Target], near{in.Record, in.Rel, DirIncoming})
		}
	}
	return out, nil
}
