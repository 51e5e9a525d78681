package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
)

// prune deletes the records a filter selects (mneme prune): forget's
// filter plus statuses and expired, refused with no filter but a project.
func (s *server) prune(w http.ResponseWriter, r *http.Request) error {
	var req mneme.PruneRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	res, err := s.eng.Prune(r.Context(), req)
	if err == nil {
		reply(w, http.StatusOK, res)
	}
	return err
}
