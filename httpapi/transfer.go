package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/access"
)

// export streams the records as JSON Lines, as `mneme export` writes them.
// A failure after the first line aborts the connection, so a client never
// mistakes a cut-off export for a whole one.
func (s *server) export(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "project")
	if err != nil {
		return err
	}
	f := mneme.Filter{Clearance: mneme.Internal, IncludeSuperseded: true, IncludeExpired: true}
	if f.Project, err = access.FromContext(r.Context()).Resolve(q.Get("project")); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/x-ndjson") // an error before the first line replaces it
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	started := false
	err = s.eng.Each(r.Context(), f, func(rec *mneme.Record) error {
		started = true
		return enc.Encode(rec)
	})
	if err != nil && started {
		panic(http.ErrAbortHandler)
	}
	return err
}

// importRecords loads JSON Lines written by export: ids kept, all or
// nothing, as `mneme import`.
func (s *server) importRecords(w http.ResponseWriter, r *http.Request) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	recs, lines, err := mneme.DecodeLines(data)
	if err != nil {
		return err
	}
	if err := s.importable(r, recs, lines); err != nil {
		return err
	}
	res, err := s.eng.Import(r.Context(), recs, mneme.WriteOptions{})
	if be := (*mneme.BatchError)(nil); errors.As(err, &be) {
		return prefixed(fmt.Sprintf("line %d", lines[be.Index]), be.Err)
	}
	if err != nil {
		return err
	}
	res.ID = ""
	reply(w, http.StatusOK, res)
	return nil
}

// importable checks a scoped caller's import: every record must go to a
// covered project, and an id already stored must be in one (an import
// updates the record with its id wherever it is).
func (s *server) importable(r *http.Request, recs []*mneme.Record, lines []int) error {
	sc := access.FromContext(r.Context())
	if len(sc.Projects) == 0 {
		return nil
	}
	for i, rec := range recs {
		var err error
		if rec.Project, err = sc.Resolve(rec.Project); err != nil {
			return prefixed(fmt.Sprintf("line %d", lines[i]), err)
		}
		if rec.ID == "" || !mneme.ValidID(rec.ID) {
			continue
		}
		old, err := s.eng.Get(r.Context(), rec.ID, mneme.Secret)
		switch {
		case mneme.ErrorCode(err) == mneme.ENOTFOUND:
		case err != nil:
			return err
		case !sc.Project(old.Project):
			return forbidden("line %d: record %s is stored in a project token %q does not cover", lines[i], rec.ID, sc.Name)
		}
	}
	return nil
}
