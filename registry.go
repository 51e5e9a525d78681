package mneme

import "context"

// registerDocuments rebuilds, from imported chunk records, the ingest
// registry entries their import lacks: an export carries records, not
// documents, and without its document a chunk is not replaced when its
// file changes. A document is registered under the id its chunks name,
// with no file hash, so the next ingest of the file compares its chunks
// (unchanged ones keep their ids, stale ones go) and records the hash.
// A store without the Copier role keeps no such entries. Only the owner's
// import (the CLI restoring an export) registers documents: PutDocuments
// replaces a document by id in any project, so a token's line naming
// another project's document as its parent would move that document.
func (e *Engine) registerDocuments(ctx context.Context, recs []*Record) error {
	cp, ok := e.store.(Copier)
	if !ok || !ScopeFrom(ctx).local {
		return nil
	}
	byID := map[string]*Document{}
	var docs []*Document
	for _, r := range recs {
		s := r.Source
		if s == nil || s.Parent == "" || s.URI == "" {
			continue
		}
		if d := byID[s.Parent]; d != nil {
			d.Chunks++
			continue
		}
		switch _, err := e.store.Document(ctx, r.Project, s.URI); {
		case err == nil: // registered (under this id or another): left as it is
			byID[s.Parent] = &Document{}
			continue
		case ErrorCode(err) != ENOTFOUND:
			return err
		}
		d := &Document{ID: s.Parent, Project: r.Project, URI: s.URI, Chunks: 1, UpdatedAt: e.now().UTC()}
		byID[s.Parent], docs = d, append(docs, d)
	}
	if len(docs) == 0 {
		return nil
	}
	out := make([]Document, len(docs))
	for i, d := range docs {
		out[i] = *d
	}
	return cp.PutDocuments(ctx, out)
}
