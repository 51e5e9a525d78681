package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
	"github.com/mneme-ai/mneme/ground"
)

// contextResults is the answer to a batch, in request order.
type contextResults struct {
	Results []contextpack.Response `json:"results"`
}

// context builds a context package (mneme context --request).
func (s *server) context(w http.ResponseWriter, r *http.Request) error {
	out, err := s.contextAll(r, "")
	if err == nil {
		reply(w, http.StatusOK, out[0])
	}
	return err
}

// contextBatch builds several (mneme context --batch).
func (s *server) contextBatch(w http.ResponseWriter, r *http.Request) error {
	out, err := s.contextAll(r, "requests")
	if err == nil {
		reply(w, http.StatusOK, contextResults{out})
	}
	return err
}

// contextAll checks every request before building any (as `mneme
// context --batch` does), then builds them in order; field names the
// batch ("" for a single package).
func (s *server) contextAll(r *http.Request, field string) ([]contextpack.Response, error) {
	reqs, err := requests[contextpack.Request](r, field)
	if err != nil {
		return nil, err
	}
	now := s.eng.Now()
	queries := make([]mneme.Query, len(reqs))
	budgets := make([]int, len(reqs))
	for i := range reqs {
		if queries[i], budgets[i], err = reqs[i].Recall(now, mneme.ScopeFrom(r.Context()).Reads()); err != nil {
			return nil, at(field, i, err)
		}
	}
	out := make([]contextpack.Response, len(reqs))
	for i, q := range queries {
		pkg, err := contextpack.AssembleFor(r.Context(), s.eng, reqs[i], q, budgets[i])
		if err != nil {
			return nil, at(field, i, err)
		}
		out[i] = contextpack.Response{ID: reqs[i].ID, Package: pkg}
	}
	return out, nil
}

// contextEvidence is the content-free evidence of a context package (mneme
// context --evidence-export).
func (s *server) contextEvidence(w http.ResponseWriter, r *http.Request) error {
	reqs, err := requests[evidence.Request](r, "")
	if err != nil {
		return err
	}
	out, err := evidence.Build(r.Context(), s.eng, reqs[0], mneme.ScopeFrom(r.Context()).Reads())
	if err == nil {
		reply(w, http.StatusOK, out)
	}
	return err
}

// ground checks an answer against a context package (mneme ground).
func (s *server) ground(w http.ResponseWriter, r *http.Request) error {
	reqs, err := requests[ground.Request](r, "")
	if err != nil {
		return err
	}
	em, id := ground.EngineEmbedder(s.eng)
	res, err := ground.Check(r.Context(), em, id, reqs[0])
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, res)
	return nil
}

// putAnswer stores an answer as verified for its request's package when
// the groundedness check accepts it (mneme answer put).
func (s *server) putAnswer(w http.ResponseWriter, r *http.Request) error {
	reqs, err := requests[ground.AnswerRequest](r, "")
	if err != nil {
		return err
	}
	em, id := ground.EngineEmbedder(s.eng)
	res, err := ground.PutAnswer(r.Context(), s.eng, em, id, reqs[0], mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, res)
	return nil
}
