package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/ops"
)

// opsWrite stores a batch of operational entries (mneme ops write).
func (s *server) opsWrite(w http.ResponseWriter, r *http.Request) error {
	data, err := readRaw(r)
	if err != nil {
		return err
	}
	b, err := ops.Decode(data)
	if err != nil {
		return err
	}
	res, err := ops.Write(r.Context(), s.eng, b)
	if err == nil {
		reply(w, http.StatusCreated, res)
	}
	return err
}

// opsParams are the query parameters of GET /v1/ops: the flags of
// `mneme ops read`.
var opsParams = []string{"project", "session", "run", "kind", "since", "until", "limit"}

// opsRead returns operational entries, oldest first (mneme ops read).
func (s *server) opsRead(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, opsParams...)
	if err != nil {
		return err
	}
	oq := ops.Query{Project: q.Get("project"), Session: q.Get("session"), Run: q.Get("run"), Kinds: values(q, "kind")}
	now := s.eng.Now()
	for name, dst := range map[string]**time.Time{"since": &oq.Since, "until": &oq.Until} {
		if v := q.Get(name); v != "" {
			t, err := mneme.ParseTime(name, v, now)
			if err != nil {
				return err
			}
			*dst = &t
		}
	}
	if v := q.Get("limit"); v != "" {
		if oq.Limit, err = strconv.Atoi(v); err != nil || oq.Limit < 1 {
			return mneme.Invalid("limit %q is not a positive number", mneme.Clip(v))
		}
	}
	page, err := ops.Read(r.Context(), s.eng, oq)
	if err == nil {
		reply(w, http.StatusOK, page)
	}
	return err
}

// opsPruneRequest is the body of POST /v1/ops/prune.
type opsPruneRequest struct {
	Before  string `json:"before"`
	Session string `json:"session,omitempty"`
	Project string `json:"project,omitempty"`
	DryRun  bool   `json:"dry_run,omitempty"`
}

// opsPrune deletes operational entries that happened before a time (mneme
// ops prune).
func (s *server) opsPrune(w http.ResponseWriter, r *http.Request) error {
	var in opsPruneRequest
	if err := decode(r, &in); err != nil {
		return err
	}
	req := ops.PruneRequest{Project: in.Project, Session: in.Session, DryRun: in.DryRun}
	if in.Before != "" {
		t, err := mneme.ParseTime("before", in.Before, s.eng.Now())
		if err != nil {
			return err
		}
		req.Before = &t
	}
	res, err := ops.Prune(r.Context(), s.eng, req)
	if err == nil {
		reply(w, http.StatusOK, res)
	}
	return err
}
