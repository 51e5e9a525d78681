package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
)

// recallResults is the answer to a batch, in request order.
type recallResults struct {
	Results []mneme.RecallResponse `json:"results"`
}

func (s *server) recall(w http.ResponseWriter, r *http.Request) error {
	out, err := s.recallAll(r, "")
	if err == nil {
		reply(w, http.StatusOK, out[0])
	}
	return err
}

func (s *server) recallBatch(w http.ResponseWriter, r *http.Request) error {
	out, err := s.recallAll(r, "requests")
	if err == nil {
		reply(w, http.StatusOK, recallResults{out})
	}
	return err
}

// recallAll checks every request before running any (as `mneme recall
// --batch` does), then runs them in order; field names the batch ("" for a
// single recall).
func (s *server) recallAll(r *http.Request, field string) ([]mneme.RecallResponse, error) {
	reqs, err := requests[mneme.RecallRequest](r, field)
	if err != nil {
		return nil, err
	}
	now := s.eng.Now()
	queries := make([]mneme.Query, len(reqs))
	for i := range reqs {
		if queries[i], err = reqs[i].ToQuery(now, mneme.ScopeFrom(r.Context()).Reads()); err != nil {
			return nil, at(field, i, err)
		}
	}
	out := make([]mneme.RecallResponse, len(reqs))
	for i, q := range queries {
		res, err := s.eng.Recall(r.Context(), q)
		if err != nil {
			return nil, at(field, i, err)
		}
		if res.Hits == nil {
			res.Hits = []mneme.Hit{}
		}
		out[i] = mneme.RecallResponse{ID: reqs[i].ID, Result: res}
	}
	return out, nil
}
