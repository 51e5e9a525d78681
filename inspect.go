package mneme

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// MaxNeighbours bounds Related's neighbours on each side.
const MaxNeighbours = 200

// Related is what a person auditing a record sees around it: the history of
// its key and its neighbours in its document or session.
type Related struct {
	History []*Record `json:"history"` // the key's versions, oldest first; empty without a key
	Before  []*Record `json:"before"`  // nearest first
	After   []*Record `json:"after"`   // nearest first
}

// Related returns the history of id's key and up to n records on each side
// of it in its document (chunks) or session (turns, tool calls), those the
// caller may read at clearance only: the same visibility as Get.
func (e *Engine) Related(ctx context.Context, id string, n int, clearance Sensitivity) (Related, error) {
	out := Related{History: []*Record{}, Before: []*Record{}, After: []*Record{}}
	if n < 1 || n > MaxNeighbours {
		return out, Invalid("neighbours %d is out of range: use 1 to %d", n, MaxNeighbours)
	}
	r, err := e.Get(ctx, id, clearance)
	if err != nil {
		return out, err
	}
	clearance = cmp.Or(ScopeFrom(ctx).Allow(clearance), Internal)
	if r.Key != "" {
		if out.History, err = e.History(ctx, r.Project, r.Key, clearance); err != nil {
			return out, err
		}
	}
	visible := Filter{Project: r.Project, Clearance: clearance, IncludeSuperseded: true}
	if err := e.checkFilter(ctx, &visible); err != nil {
		return out, err
	}
	before, after, err := e.store.Neighbours(ctx, r, n)
	if err != nil {
		return out, err
	}
	keep := func(recs []*Record) []*Record {
		return append([]*Record{}, slices.DeleteFunc(recs, func(x *Record) bool { return !visible.Match(x) })...)
	}
	out.Before, out.After = keep(before), keep(after)
	return out, e.hideLinks(ctx, append(slices.Clone(out.Before), out.After...))
}

// TagCount is how many records carry a tag.
type TagCount struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
}

// Tags counts the tags of the records in project ("" for every project the
// caller's scope covers) that the caller may read, most used first.
func (e *Engine) Tags(ctx context.Context, project string) ([]TagCount, error) {
	// Every record, page by page: fine while projects hold thousands of
	// records; a store-side count would scale further.
	counts := map[string]int{}
	err := e.Each(ctx, Filter{Project: project, Clearance: ScopeFrom(ctx).Reads()}, func(r *Record) error {
		for _, t := range r.Tags {
			counts[t]++
		}
		return nil
	})
	out := []TagCount{}
	for t, n := range counts {
		out = append(out, TagCount{t, n})
	}
	slices.SortFunc(out, func(a, b TagCount) int { return cmp.Or(b.Count-a.Count, strings.Compare(a.Tag, b.Tag)) })
	return out, err
}

// Diagnose runs the health checks a server can answer for its caller: the
// store (counts under the caller's scope, its file, its indexes), the
// embedder and the memories waiting for a vector. `mneme doctor` adds the
// checks of the home (configuration, file modes).
func (e *Engine) Diagnose(ctx context.Context) []HealthCheck {
	var out []HealthCheck
	st, err := e.Stats(ctx)
	if err != nil {
		return append(out, HealthCheck{Name: "database", Detail: ErrorMessage(err)})
	}
	out = append(out, HealthCheck{Name: "database", OK: true,
		Detail: fmt.Sprintf("%s in %s", Plural(st.Total, "memory", "memories"), Plural(len(st.Projects), "project", "projects"))})
	if ic, ok := e.store.(IntegrityChecker); ok {
		c, err := ic.Integrity(ctx, false)
		if err != nil {
			c = HealthCheck{Name: "database file", Detail: ErrorMessage(err)}
		}
		out = append(out, c)
	}
	if hc, ok := e.store.(HealthChecker); ok {
		states, err := hc.Health(ctx)
		if err != nil {
			states = []HealthCheck{{Name: "indexes", Detail: ErrorMessage(err)}}
		}
		out = append(out, states...)
	}
	return append(out, e.embedderChecks(ctx, st)...)
}

// embedderChecks: whether the embedder answers, and the pending vectors.
func (e *Engine) embedderChecks(ctx context.Context, st Stats) []HealthCheck {
	em := e.Embedder()
	if em == nil {
		return []HealthCheck{{Name: "embedder", OK: true, Detail: "none configured: memories are stored without vectors"}}
	}
	info := em.Info()
	c := HealthCheck{Name: "embedder", OK: true, Detail: fmt.Sprintf("%s version %s, %d dimensions: answers", info.ID(), info.Version, info.Dim)}
	if _, err := e.Embed(ctx, []string{"mneme doctor"}); err != nil {
		c = HealthCheck{Name: "embedder", Detail: info.ID() + ": " + ErrorMessage(err)}
	}
	v := HealthCheck{Name: "vectors", OK: true, Detail: "every memory that may be embedded has a vector"}
	if st.PendingEmbeddings > 0 {
		v = HealthCheck{Name: "vectors", Detail: Plural(st.PendingEmbeddings, "memory waits", "memories wait") + " for a vector (pending embedding)", Fix: "mneme sync"}
		if h := st.EmbedderError; h != nil {
			v.Detail += fmt.Sprintf("; the embedder's last failure, at %s: %s", h.At.Format("2006-01-02T15:04:05Z07:00"), h.Error)
		}
	}
	return []HealthCheck{c, v}
}
