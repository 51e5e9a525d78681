package httpapi

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mneme-ai/mneme"
)

// The routes the web UI needs beyond the CLI's: who the caller is, what is
// around a record, the tags, and the health checks. Each calls one Engine
// use case under the caller's scope.

// scopeReply is the body of GET /v1/scope: what the caller's token allows,
// so a client shows only what it may do (the server refuses the rest anyway).
type scopeReply struct {
	Name      string            `json:"name"`
	Projects  []string          `json:"projects"`
	Write     bool              `json:"write"`
	Clearance mneme.Sensitivity `json:"clearance"`
}

func (s *server) scope(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	sc := mneme.ScopeFrom(r.Context())
	projects := sc.Projects
	if projects == nil {
		projects = []string{}
	}
	reply(w, http.StatusOK, scopeReply{Name: sc.Name, Projects: projects, Write: sc.Write, Clearance: sc.Reads()})
	return nil
}

// DefaultNeighbours is how many neighbours on each side GET
// /v1/memories/{id}/related returns when the request names none.
const DefaultNeighbours = 20

func (s *server) related(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "neighbours")
	if err != nil {
		return err
	}
	n := DefaultNeighbours
	if v := q.Get("neighbours"); v != "" {
		if n, err = strconv.Atoi(v); err != nil {
			return mneme.Invalid("neighbours %q is not a number: use 1 to %d", mneme.Clip(v), mneme.MaxNeighbours)
		}
	}
	out, err := s.eng.Related(r.Context(), r.PathValue("id"), n, mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, out)
	return nil
}

// tagsReply is the body of GET /v1/tags.
type tagsReply struct {
	Project string           `json:"project"`
	Tags    []mneme.TagCount `json:"tags"`
}

func (s *server) tags(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "project")
	if err != nil {
		return err
	}
	out, err := s.eng.Tags(r.Context(), q.Get("project"))
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, tagsReply{Project: q.Get("project"), Tags: out})
	return nil
}

// doctorReply is the body of GET /v1/doctor.
type doctorReply struct {
	OK     bool                `json:"ok"`
	Checks []mneme.HealthCheck `json:"checks"`
	// Errors are the server's latest failed requests (5xx), newest first,
	// for a token that covers every project (they are not scoped).
	Errors []recentError `json:"errors"`
}

func (s *server) doctor(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	out := doctorReply{OK: true, Checks: s.eng.Diagnose(r.Context()), Errors: []recentError{}}
	for _, c := range out.Checks {
		out.OK = out.OK && c.OK
	}
	if len(mneme.ScopeFrom(r.Context()).Projects) == 0 {
		out.Errors = s.errors.list()
	}
	reply(w, http.StatusOK, out)
	return nil
}

// recentError is one failed request: its route and the error's code and
// message (internal errors name no memory content: see fail).
type recentError struct {
	At      time.Time `json:"at"`
	Route   string    `json:"route"`
	Status  int       `json:"status"`
	Code    string    `json:"code,omitempty"`
	Message string    `json:"message,omitempty"`
}

// errorRing keeps the last few failed requests.
type errorRing struct {
	mu   sync.Mutex
	last []recentError
}

const keptErrors = 20

func (e *errorRing) add(x recentError) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.last = append(e.last, x)
	if len(e.last) > keptErrors {
		e.last = e.last[len(e.last)-keptErrors:]
	}
}

func (e *errorRing) list() []recentError {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]recentError, 0, len(e.last))
	for i := len(e.last) - 1; i >= 0; i-- {
		out = append(out, e.last[i])
	}
	return out
}
