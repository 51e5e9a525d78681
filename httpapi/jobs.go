package httpapi

import (
	"net/http"
	"strconv"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/jobs"
)

// jobsReply is the body of GET /v1/jobs.
type jobsReply struct {
	Jobs []jobs.Entry `json:"jobs"`
}

// listJobs lists the job ledger as the token may see it (jobs.List: a
// token limited to projects sees only their runs).
func (s *server) listJobs(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "kind", "limit")
	if err != nil {
		return err
	}
	jq := jobs.Query{Kind: jobs.Kind(q.Get("kind"))}
	if v := q.Get("limit"); v != "" {
		if jq.Limit, err = strconv.Atoi(v); err != nil || jq.Limit == 0 {
			return mneme.Invalid("limit %q is not a number from 1 to %d", mneme.Clip(v), jobs.MaxLimit)
		}
	}
	es, err := jobs.List(r.Context(), s.eng, jq)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, jobsReply{Jobs: es})
	return nil
}
