package mneme

import (
	"context"
	"encoding/json"
	"time"
)

// The request and response shapes every surface shares (CLI JSON, HTTP,
// MCP), so a script sees the same JSON whichever way it calls mneme.

// RememberRequest is one memory to store, as a client writes it: times as
// RFC 3339 (or a date, or an age like 2d for occurred_at), the TTL as a
// duration, the source as a URI.
type RememberRequest struct {
	Text        string          `json:"text"`
	Type        Type            `json:"type,omitempty"`
	Kind        string          `json:"kind,omitempty"`
	Title       string          `json:"title,omitempty"`
	Project     string          `json:"project,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Source      string          `json:"source,omitempty"`
	OccurredAt  string          `json:"occurred_at,omitempty"`
	TTL         string          `json:"ttl,omitempty"`
	Key         string          `json:"key,omitempty"`
	Status      Status          `json:"status,omitempty"`
	Sensitivity Sensitivity     `json:"sensitivity,omitempty"`
	Provenance  Provenance      `json:"provenance,omitempty"`
	SessionID   string          `json:"session_id,omitempty"`
	RunID       string          `json:"run_id,omitempty"`
	Speaker     string          `json:"speaker,omitempty"`
	Meta        json.RawMessage `json:"meta,omitempty"`
	Redact      bool            `json:"redact,omitempty"` // mask credentials instead of refusing
	// RequireEmbedding fails the write when the embedder is down or slow,
	// instead of storing the memory pending embedding.
	RequireEmbedding bool `json:"require_embedding,omitempty"`
}

// Record builds the record r describes at time now, with the CLI's
// defaults, and validates it. The fields r names are marked given: they
// replace a stored record's when the same text is remembered again.
func (r *RememberRequest) Record(now time.Time) (*Record, error) {
	rec := &Record{Text: r.Text, Type: r.Type, Kind: r.Kind, Title: r.Title, Project: r.Project, Tags: r.Tags,
		Key: r.Key, Status: r.Status, Sensitivity: r.Sensitivity, Provenance: r.Provenance, SessionID: r.SessionID,
		RunID: r.RunID, Speaker: r.Speaker, Meta: r.Meta}
	if r.Source != "" {
		rec.Source = &Source{URI: r.Source}
	}
	if r.OccurredAt != "" {
		t, err := ParseTime("occurred_at", r.OccurredAt, now)
		if err != nil {
			return nil, err
		}
		rec.OccurredAt = &t
	}
	if r.TTL != "" {
		d, err := ParseTTL(r.TTL)
		if err != nil {
			return nil, err
		}
		exp := now.Add(d)
		rec.ExpiresAt = &exp
	}
	rec.markGiven()
	if rec.Kind == "" {
		rec.Kind = "note"
	}
	return rec, Check(*rec, WriteOptions{Redact: r.Redact})
}

// RememberRequests stores what reqs describe in one transaction, all or
// nothing. Each request is checked under its own redact flag, so masking
// in the write only touches what a request allowed; an invalid one fails
// the batch as a *BatchError naming it.
func (e *Engine) RememberRequests(ctx context.Context, reqs []RememberRequest) (WriteResult, error) {
	if err := ScopeFrom(ctx).mustWrite("remember"); err != nil {
		return WriteResult{}, err
	}
	now := e.Now()
	recs := make([]*Record, len(reqs))
	var opts WriteOptions
	for i := range reqs {
		var err error
		if recs[i], err = reqs[i].Record(now); err != nil {
			return WriteResult{}, inBatch(len(reqs), i, err)
		}
		opts.Redact = opts.Redact || reqs[i].Redact
		opts.RequireEmbedding = opts.RequireEmbedding || reqs[i].RequireEmbedding
	}
	return e.Remember(ctx, recs, opts)
}

// RecallResponse is a recall's result with the request's id echoed (batch
// lines, batch HTTP calls).
type RecallResponse struct {
	ID string `json:"id,omitempty"`
	*Result
}

// ListPage is a page of records, newest first, and the cursor of the next
// page ("" at the end).
type ListPage struct {
	Records    []*Record `json:"records"`
	NextCursor string    `json:"next_cursor"`
}

// Patch changes some fields of a stored record; nil fields stay as they are.
type Patch struct {
	Title       *string          `json:"title,omitempty"`
	Text        *string          `json:"text,omitempty"`
	Kind        *string          `json:"kind,omitempty"`
	Tags        *[]string        `json:"tags,omitempty"`
	Key         *string          `json:"key,omitempty"`
	Status      *Status          `json:"status,omitempty"`
	Sensitivity *Sensitivity     `json:"sensitivity,omitempty"`
	Provenance  *Provenance      `json:"provenance,omitempty"`
	Meta        *json.RawMessage `json:"meta,omitempty"`
	TTL         *string          `json:"ttl,omitempty"` // "" removes the expiry
	// Redact masks the credentials the changed record holds in any field
	// instead of refusing it, as a write's redact does.
	Redact bool `json:"redact,omitempty"`
}

// Check validates the fields p sets, as Patch would before it reads the
// record: a surface calls it to reject bad input before it opens a store.
func (p *Patch) Check() error {
	var err error
	if p.Status != nil {
		_, err = ParseStatus(string(*p.Status))
	}
	if p.Sensitivity != nil && err == nil {
		_, err = ParseSensitivity(string(*p.Sensitivity))
	}
	if p.Provenance != nil && *p.Provenance != "" && err == nil {
		_, err = ParseProvenance(string(*p.Provenance))
	}
	if p.TTL != nil && *p.TTL != "" && err == nil {
		_, err = ParseTTL(*p.TTL)
	}
	if p.Text != nil && err == nil {
		err = ValidateText(*p.Text)
	}
	return err
}

// Patch applies p to the record with id, keeping its id and creation time
// (a changed text is re-embedded), and returns the record as stored.
func (e *Engine) Patch(ctx context.Context, id string, p Patch, clearance Sensitivity) (*Record, error) {
	if err := ScopeFrom(ctx).mustWrite("update"); err != nil {
		return nil, err
	}
	return rewrite(ctx, func() (*Record, error) { return e.patch(ctx, id, p, clearance) })
}

// patch is one attempt of Patch.
func (e *Engine) patch(ctx context.Context, id string, p Patch, clearance Sensitivity) (*Record, error) {
	r, err := e.read(ctx, id, clearance)
	if err != nil {
		return nil, err
	}
	base := *r
	r.base = &base
	now := e.now().UTC()
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&r.Title, p.Title)
	set(&r.Text, p.Text)
	set(&r.Kind, p.Kind)
	set(&r.Key, p.Key)
	if p.Tags != nil {
		r.Tags = *p.Tags
	}
	if p.Status != nil {
		r.Status = *p.Status
	}
	if p.Sensitivity != nil {
		r.Sensitivity = *p.Sensitivity
	}
	if p.Provenance != nil {
		r.Provenance = *p.Provenance
	}
	if p.Meta != nil {
		r.Meta = *p.Meta
	}
	if p.TTL != nil {
		r.ExpiresAt = nil
		if *p.TTL != "" {
			d, err := ParseTTL(*p.TTL)
			if err != nil {
				return nil, err
			}
			exp := now.Add(d)
			r.ExpiresAt = &exp
		}
	}
	r.ContentHash, r.UpdatedAt = "", now
	if _, err := e.rewriteRecords(ctx, []*Record{r}, WriteOptions{Redact: p.Redact}); err != nil {
		return nil, err
	}
	stored, err := e.store.Get(ctx, id) // as stored, even if the patch made it secret
	if err != nil {
		return nil, err
	}
	return e.shown(ctx, stored), nil
}
