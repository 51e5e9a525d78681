package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// context builds a context package (mneme context --request).
func (s *server) context(w http.ResponseWriter, r *http.Request) error {
	reqs, err := requests[contextpack.Request](r, "")
	if err != nil {
		return err
	}
	pkg, err := contextpack.Build(r.Context(), s.eng, reqs[0], mneme.Internal)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, contextpack.Response{ID: reqs[0].ID, Package: pkg})
	return nil
}
