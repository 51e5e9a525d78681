package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme/consolidate"
)

// summarize consolidates a window of episodic records into one summary:
// 201 when it wrote one, 200 when the same summary was already stored.
func (s *server) summarize(w http.ResponseWriter, r *http.Request) error {
	var req consolidate.Request
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := req.Check(s.eng.Now()); err != nil {
		return err
	}
	res, err := consolidate.Summarize(r.Context(), s.eng, req)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if res.Created {
		status = http.StatusCreated
	}
	reply(w, status, res)
	return nil
}
