package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/jobs"
)

// healthReply is the body of GET /v1/health: no counts, since anyone may
// ask (GET /v1/stats and the MCP health resource count, for a token).
type healthReply struct {
	OK      bool   `json:"ok"`
	Version string `json:"version"`
}

// health answers without a token, so probes need no secret; it reads the
// store so a broken store shows.
func (s *server) health(w http.ResponseWriter, r *http.Request) error {
	if err := s.eng.Ping(r.Context()); err != nil {
		return err
	}
	reply(w, http.StatusOK, healthReply{OK: true, Version: s.cfg.Version})
	return nil
}

// stats counts the records, with the last run of each job; a token
// limited to projects sees only theirs (mneme.Scope.Stats, jobs.List).
func (s *server) stats(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	st, err := jobs.StatsOf(r.Context(), s.eng)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, st)
	return nil
}

// cacheStats counts the cached results by kind (cache.StatsOf): the cache
// spans every project, so only a token for all of them may ask.
func (s *server) cacheStats(w http.ResponseWriter, r *http.Request) error {
	if _, err := params(r); err != nil {
		return err
	}
	st, err := cache.StatsOf(r.Context(), s.eng)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, st)
	return nil
}
