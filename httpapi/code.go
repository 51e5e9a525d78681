package httpapi

import (
	"net/http"
	"strings"

	"github.com/mneme-ai/mneme/codemem"
)

// codeRoutes serve code memory (package codemem): each takes
// {project_root, detail, refresh} and answers the envelope. Only roots
// under the configured code.roots are served (403 EFORBIDDEN otherwise).
var codeRoutes = []route{
	{"POST /v1/code/explore", read, (*server).code},
	{"POST /v1/code/delta", read, (*server).code},
	{"POST /v1/code/context", read, (*server).code},
	{"POST /v1/code/refresh", read, (*server).code},
}

func init() { routes = append(routes, codeRoutes...) }

// code runs the code command its path names.
func (s *server) code(w http.ResponseWriter, r *http.Request) error {
	var req codemem.Request
	if err := decode(r, &req); err != nil {
		return err
	}
	svc := s.cfg.Code
	if svc == nil { // no code.roots: every root is refused
		svc = codemem.New(codemem.Options{Restrict: true})
	}
	env, err := svc.Run(strings.TrimPrefix(r.URL.Path, "/v1/code/"), req)
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, env)
	return nil
}
