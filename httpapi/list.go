package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// listParams are the query parameters of GET /v1/memories: the filters of
// `mneme list`.
var listParams = []string{"project", "type", "kind", "tag", "status", "all_tags", "since", "until", "session", "run", "include_superseded", "meta", "limit", "cursor"}

// DefaultLimit is the page size of a list that names none, as in the CLI.
const DefaultLimit = 20

func (s *server) list(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, listParams...)
	if err != nil {
		return err
	}
	now := s.eng.Now()
	f := mneme.Filter{Kinds: values(q, "kind"), Tags: values(q, "tag"), Clearance: mneme.ScopeFrom(r.Context()).Reads()}
	for _, t := range values(q, "type") {
		f.Types = append(f.Types, mneme.Type(t))
	}
	for _, st := range values(q, "status") {
		f.Statuses = append(f.Statuses, mneme.Status(st))
	}
	f.Project, f.SessionID, f.RunID = q.Get("project"), q.Get("session"), q.Get("run")
	if f.Meta, err = mneme.ParseMetaMatches(q["meta"]); err != nil {
		return err
	}
	if f.AllTags, err = flag(q, "all_tags"); err != nil {
		return err
	}
	if f.IncludeSuperseded, err = flag(q, "include_superseded"); err != nil {
		return err
	}
	for name, dst := range map[string]**time.Time{"since": &f.Since, "until": &f.Until} {
		if v := q.Get(name); v != "" {
			t, err := mneme.ParseTime(name, v, now)
			if err != nil {
				return err
			}
			*dst = &t
		}
	}
	limit := DefaultLimit
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil {
			return mneme.Invalid("limit %q is not a number: use 1 to %d", mneme.Clip(v), mneme.MaxK)
		}
	}
	recs, next, err := s.eng.List(r.Context(), f, limit, q.Get("cursor"))
	if err != nil {
		return err
	}
	if recs == nil {
		recs = []*mneme.Record{}
	}
	reply(w, http.StatusOK, mneme.ListPage{Records: recs, NextCursor: next})
	return nil
}

// params returns r's query, refusing parameters outside allowed: a typo
// would otherwise silently widen the selection.
func params(r *http.Request, allowed ...string) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, mneme.Invalid("query string: %v", err)
	}
	for name := range q {
		if !slices.Contains(allowed, name) {
			return nil, mneme.Invalid("unknown query parameter %q: allowed are %s", mneme.Clip(name), strings.Join(allowed, ", "))
		}
	}
	return q, nil
}

// values returns a repeatable parameter's values; each may be a comma list,
// as in the CLI's flags.
func values(q url.Values, name string) []string { return mneme.SplitList(q[name]...) }

func flag(q url.Values, name string) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, mneme.Invalid("%s %q is not true or false", name, mneme.Clip(v))
	}
	return b, nil
}
