package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/mneme-ai/mneme"
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
	res, err := s.eng.RememberRequests(r.Context(), reqs)
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
	rec, err := s.eng.Get(r.Context(), r.PathValue("id"), mneme.ScopeFrom(r.Context()).Reads())
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
	rec, err := s.eng.Patch(r.Context(), r.PathValue("id"), p, mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, rec)
	return nil
}

func (s *server) delete(w http.ResponseWriter, r *http.Request) error {
	return s.forgetting(w, r, mneme.ForgetRequest{IDs: []string{r.PathValue("id")}})
}

// forgetRequest is the body of POST /v1/forget: ids, or a filter.
type forgetRequest struct {
	IDs    []string        `json:"ids,omitempty"`
	Filter json.RawMessage `json:"filter,omitempty"` // a mneme.ForgetFilter, decoded on its own for precise errors
	DryRun bool            `json:"dry_run,omitempty"`
}

func (s *server) forget(w http.ResponseWriter, r *http.Request) error {
	var body forgetRequest
	if err := decode(r, &body); err != nil {
		return err
	}
	req := mneme.ForgetRequest{IDs: body.IDs, DryRun: body.DryRun}
	if body.Filter != nil {
		if err := mneme.DecodeStrict(body.Filter, &req.ForgetFilter); err != nil {
			return mneme.Prefix("filter", err)
		}
	}
	return s.forgetting(w, r, req)
}

func (s *server) forgetting(w http.ResponseWriter, r *http.Request, req mneme.ForgetRequest) error {
	out, err := s.eng.Forget(r.Context(), req)
	if err == nil {
		reply(w, http.StatusOK, out)
	}
	return err
}
