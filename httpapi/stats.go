package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/access"
)

// healthReply is the body of GET /v1/health.
type healthReply struct {
	OK      bool   `json:"ok"`
	Version string `json:"version"`
	Records int    `json:"records"`
}

// health answers without a token, so probes need no secret; it reads the
// store so a broken store shows.
func (s *server) health(w http.ResponseWriter, r *http.Request) error {
	st, err := s.eng.Stats(r.Context())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, healthReply{OK: true, Version: s.cfg.Version, Records: st.Total})
	return nil
}

// stats counts the records. A token limited to projects sees only theirs:
// the engine counts superseded, expired, secret and documents over the
// whole store only, so those are 0 for it.
func (s *server) stats(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	st, err := s.eng.Stats(r.Context())
	if err != nil {
		return err
	}
	if sc := access.FromContext(r.Context()); len(sc.Projects) > 0 {
		mine := mneme.Stats{Projects: []mneme.ProjectStats{}}
		for _, p := range st.Projects {
			if sc.Project(p.Project) {
				mine.Projects = append(mine.Projects, p)
				mine.Total += p.Total
			}
		}
		st = mine
	}
	reply(w, http.StatusOK, st)
	return nil
}
