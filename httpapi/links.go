package httpapi

import (
	"net/http"

	"github.com/mneme-ai/mneme"
)

// linkBody is the body of POST /v1/memories/{id}/links: the target and
// the relation.
type linkBody struct {
	To  string `json:"to"`
	Rel string `json:"rel"`
}

func (s *server) link(w http.ResponseWriter, r *http.Request) error {
	var body linkBody
	if err := decode(r, &body); err != nil {
		return err
	}
	req := mneme.LinkRequest{From: r.PathValue("id"), To: body.To, Rel: body.Rel}
	res, err := s.eng.Link(r.Context(), req, mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, res)
	return nil
}

// unlink is DELETE /v1/memories/{id}/links/{to}[?rel=R]: every relation
// to the target without rel.
func (s *server) unlink(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "rel")
	if err != nil {
		return err
	}
	req := mneme.LinkRequest{From: r.PathValue("id"), To: r.PathValue("to"), Rel: q.Get("rel")}
	res, err := s.eng.Unlink(r.Context(), req, mneme.ScopeFrom(r.Context()).Reads())
	if err != nil {
		return err
	}
	reply(w, http.StatusOK, res)
	return nil
}
