package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/access"
)

func (s *server) remember(w http.ResponseWriter, r *http.Request) error {
	return s.rememberAll(w, r, "")
}

func (s *server) rememberBatch(w http.ResponseWriter, r *http.Request) error {
	return s.rememberAll(w, r, "memories")
}

// rememberAll validates every request before storing them all in one
// transaction; field names the batch ("" for a single memory).
func (s *server) rememberAll(w http.ResponseWriter, r *http.Request, field string) error {
	reqs, err := requests[mneme.RememberRequest](r, field)
	if err != nil {
		return err
	}
	sc, now := access.FromContext(r.Context()), time.Now().UTC()
	recs := make([]*mneme.Record, len(reqs))
	// Record checks each request's credentials under its own redact flag,
	// so redacting in the write can only mask what a request allowed.
	redact := false
	for i := range reqs {
		if reqs[i].Project, err = sc.Resolve(reqs[i].Project); err != nil {
			return at(field, i, err)
		}
		if recs[i], err = reqs[i].Record(now); err != nil {
			return at(field, i, err)
		}
		redact = redact || reqs[i].Redact
	}
	res, err := s.eng.Remember(r.Context(), recs, mneme.WriteOptions{Redact: redact})
	if be := (*mneme.BatchError)(nil); errors.As(err, &be) {
		return at(field, be.Index, be.Err)
	}
	if err != nil {
		return err
	}
	reply(w, http.StatusCreated, res)
	return nil
}

func (s *server) get(w http.ResponseWriter, r *http.Request) error {
	rec, err := s.visible(r, r.PathValue("id"), mneme.Internal)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, rec)
	return nil
}

func (s *server) patch(w http.ResponseWriter, r *http.Request) error {
	var p mneme.Patch
	if err := decode(r, &p); err != nil {
		return err
	}
	id := r.PathValue("id")
	if _, err := s.visible(r, id, mneme.Internal); err != nil {
		return err
	}
	rec, err := s.eng.Patch(r.Context(), id, p, mneme.Internal)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, rec)
	return nil
}

func (s *server) delete(w http.ResponseWriter, r *http.Request) error {
	return s.forgetIDs(w, r, []string{r.PathValue("id")}, false)
}

// forgetRequest is the body of POST /v1/forget: ids, or a filter.
type forgetRequest struct {
	IDs    []string        `json:"ids,omitempty"`
	Filter json.RawMessage `json:"filter,omitempty"` // a forgetFilter, decoded on its own for precise errors
	DryRun bool            `json:"dry_run,omitempty"`
}

// forgetFilter has the filters of `mneme forget`.
type forgetFilter struct {
	Project string       `json:"project,omitempty"`
	Types   []mneme.Type `json:"types,omitempty"`
	Kinds   []string     `json:"kinds,omitempty"`
	Tags    []string     `json:"tags,omitempty"`
	Before  string       `json:"before,omitempty"` // RFC 3339, a date, or an age like 30d
	Key     string       `json:"key,omitempty"`
}

func (s *server) forget(w http.ResponseWriter, r *http.Request) error {
	var req forgetRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.Filter == nil {
		return s.forgetIDs(w, r, req.IDs, req.DryRun)
	}
	if len(req.IDs) > 0 {
		return mneme.Invalid("give ids or a filter, not both")
	}
	var ff forgetFilter
	if err := mneme.DecodeStrict(req.Filter, &ff); err != nil {
		return mneme.Invalid("filter: %s", mneme.ErrorMessage(err))
	}
	f := mneme.Filter{Types: ff.Types, Kinds: ff.Kinds, Tags: ff.Tags, Key: ff.Key, Clearance: mneme.Secret}
	var err error
	if f.Project, err = access.FromContext(r.Context()).Resolve(ff.Project); err != nil {
		return err
	}
	if ff.Before != "" {
		t, err := mneme.ParseTime("before", ff.Before, time.Now())
		if err != nil {
			return err
		}
		f.Before = &t
	}
	ids, err := s.eng.ForgetWhere(r.Context(), f, req.DryRun)
	if err != nil {
		return err
	}
	return forgot(w, ids, req.DryRun)
}

// forgetIDs forgets records by id, all or none, after checking that the
// caller can see each of them (secret ones included, as the CLI does).
func (s *server) forgetIDs(w http.ResponseWriter, r *http.Request, ids []string, dryRun bool) error {
	for _, id := range ids {
		if _, err := s.visible(r, id, mneme.Secret); err != nil {
			return err
		}
	}
	if !dryRun {
		if _, err := s.eng.Forget(r.Context(), ids); err != nil {
			return err
		}
	}
	return forgot(w, ids, dryRun)
}

func forgot(w http.ResponseWriter, ids []string, dryRun bool) error {
	reply(w, http.StatusOK, mneme.Forgot(ids, dryRun))
	return nil
}
