package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mneme-ai/mneme"
)

// export streams the records as JSON Lines, as `mneme export` writes them.
// A failure after the first line aborts the connection, so a client never
// mistakes a cut-off export for a whole one.
func (s *server) export(w http.ResponseWriter, r *http.Request) error {
	q, err := params(r, "project", "meta")
	if err != nil {
		return err
	}
	f := mneme.Filter{Project: q.Get("project"), Clearance: mneme.ScopeFrom(r.Context()).Reads(), IncludeSuperseded: true, IncludeExpired: true}
	if f.Meta, err = mneme.ParseMetaMatches(q["meta"]); err != nil {
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
	q, err := params(r, "require_embedding")
	if err != nil {
		return err
	}
	require, err := flag(q, "require_embedding")
	if err != nil {
		return err
	}
	data, err := readBody(r)
	if err != nil {
		return err
	}
	recs, lines, err := mneme.DecodeLines(data)
	if err != nil {
		return err
	}
	res, err := s.eng.Import(r.Context(), recs, mneme.WriteOptions{RequireEmbedding: require})
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
