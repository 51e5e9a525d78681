package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
)

// promote makes records reusable (mneme promote): 201 when it built a new
// record, 200 when it upgraded one in place or found it already so. The
// caller's token names the promotion and bounds the clearance.
func (s *server) promote(w http.ResponseWriter, r *http.Request) error {
	var req mneme.PromoteRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	res, err := s.eng.Promote(r.Context(), req, mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	status := http.StatusOK
	if res.Outcome == mneme.Created {
		status = http.StatusCreated
	}
	reply(w, status, res)
	return nil
}
