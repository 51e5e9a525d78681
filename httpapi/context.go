package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
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

// ground checks an answer against a context package (mneme ground).
func (s *server) ground(w http.ResponseWriter, r *http.Request) error {
	reqs, err := requests[ground.Request](r, "")
	if err != nil {
		return err
	}
	var em ground.Embedder
	id := ""
	if e := s.eng.Embedder(); e != nil {
		em, id = s.eng, e.Info().ID()
	}
	res, err := ground.Check(r.Context(), em, id, reqs[0])
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, res)
	return nil
}
