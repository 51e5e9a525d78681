package mneme

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// PromoteRequest makes records reusable: a fact (semantic) or a how-to
// (procedural) that a person or an agent has checked. Every surface takes
// these fields (CLI flags, the MCP tool's parameters, the HTTP body).
type PromoteRequest struct {
	IDs    []string `json:"ids"`
	To     Type     `json:"to"`               // semantic or procedural
	Status Status   `json:"status,omitempty"` // validated (the default) or published
	Title  string   `json:"title,omitempty"`  // the reusable record's title; empty keeps (or takes) the source's
}

// What a promotion did.
const (
	Created   = "created"   // a new record built from the sources, linked derived_from each
	Upgraded  = "upgraded"  // the record (or the one already built from these sources) changed in place
	Unchanged = "unchanged" // it already had this status and title: nothing was written
)

// PromoteResult says what a promotion did and gives the reusable record
// as stored.
type PromoteResult struct {
	RecordID string  `json:"record_id"`
	Outcome  string  `json:"outcome"` // created, upgraded or unchanged
	Record   *Record `json:"record"`
}

// Check validates req as Promote would, without a store, and fills in the
// default status: a surface calls it to reject bad input before it opens
// one.
func (req *PromoteRequest) Check() error {
	switch n := len(req.IDs); {
	case n == 0:
		return Invalid("nothing to promote: give the ids of the records to promote")
	case n > MaxPromoteIDs:
		return Invalid("%d ids is more than the %d one promotion may combine: promote fewer at a time", n, MaxPromoteIDs)
	}
	for _, id := range req.IDs {
		if !ValidID(id) {
			return invalidID(id)
		}
	}
	if req.To != Semantic && req.To != Procedural {
		if req.To == "" {
			return Invalid("say what to promote to: {{to=semantic}} (a fact) or {{to=procedural}} (a how-to)")
		}
		return Invalid("to %q is not a reusable type: use {{to=semantic}} (a fact) or {{to=procedural}} (a how-to)", Clip(string(req.To)))
	}
	if req.Status == "" {
		req.Status = Validated
	}
	if !slices.Contains(reusable, req.Status) {
		return Invalid("status %q is not a reusable status: use {{status=validated}} or {{status=published}}", Clip(string(req.Status)))
	}
	return checkField("title", req.Title, MaxTitleBytes)
}

// Promote makes the records req names reusable. One record already of
// type req.To is upgraded in place; otherwise one new record of that type
// is built from them all (their texts in time order, linked derived_from
// each), or the one already built from them is upgraded. Either way the
// record gets req's status and a promotion entry: who (the caller's scope
// name), when, and from which type and status. Sources must be visible at
// clearance (capped by the scope), of one project, neither superseded nor
// expired; a status is never lowered. Nothing is written on error.
func (e *Engine) Promote(ctx context.Context, req PromoteRequest, clearance Sensitivity) (PromoteResult, error) {
	if err := ScopeFrom(ctx).mustWrite("promote"); err != nil {
		return PromoteResult{}, err
	}
	if err := req.Check(); err != nil {
		return PromoteResult{}, err
	}
	res, err := rewrite(ctx, func() (PromoteResult, error) { return e.promote(ctx, req, clearance) })
	if err == nil && res.Record != nil {
		res.Record = e.shown(ctx, res.Record)
	}
	return res, err
}

// promote is one attempt of Promote.
func (e *Engine) promote(ctx context.Context, req PromoteRequest, clearance Sensitivity) (PromoteResult, error) {
	sc := ScopeFrom(ctx)
	srcs, err := e.promotable(ctx, req.IDs, clearance)
	if err != nil {
		return PromoteResult{}, err
	}
	entry := Promotion{At: e.Now(), By: sc.Name, ToType: req.To, ToStatus: req.Status, From: make([]PromotedFrom, len(srcs))}
	for i, s := range srcs {
		entry.From[i] = PromotedFrom{ID: s.ID, Type: s.Type, Status: s.Status}
	}
	if len(srcs) == 1 && srcs[0].Type == req.To {
		return e.upgrade(ctx, srcs[0], req, entry)
	}
	built, err := derive(req, srcs)
	if err != nil {
		return PromoteResult{}, err
	}
	prior, err := e.builtBefore(ctx, built, clearance)
	switch {
	case err != nil:
		return PromoteResult{}, err
	case prior != nil:
		prior.Links = unionLinks(prior.Links, built.Links)
		return e.upgrade(ctx, prior, req, entry)
	}
	return e.create(ctx, built, entry)
}

// promotable reads the sources, each once, oldest event first, and checks
// that they may be promoted together.
func (e *Engine) promotable(ctx context.Context, ids []string, clearance Sensitivity) ([]*Record, error) {
	var srcs []*Record
	now := e.Now()
	for _, id := range ids {
		if slices.ContainsFunc(srcs, func(r *Record) bool { return r.ID == id }) {
			continue // named twice: counts once
		}
		r, err := e.read(ctx, id, clearance)
		switch {
		case ErrorCode(err) == ENOTFOUND:
			return nil, Errorf(ENOTFOUND, "%s; nothing was promoted", rawMessage(err))
		case err != nil:
			return nil, err
		case r.Status == Superseded:
			return nil, Invalid("record %s is superseded: promote the version that replaced it%s", id, historyHint(r.Key))
		case r.Expired(now):
			return nil, Invalid("record %s expired at %s: it is no longer remembered, so it cannot be promoted", id, r.ExpiresAt.Format(time.RFC3339))
		case len(srcs) > 0 && r.Project != srcs[0].Project:
			return nil, Invalid("records %s and %s are in different projects (%s, %s): promote the records of one project together", srcs[0].ID, id, srcs[0].Project, r.Project)
		}
		srcs = append(srcs, r)
	}
	slices.SortStableFunc(srcs, func(a, b *Record) int {
		if c := a.EventTime().Compare(b.EventTime()); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return srcs, nil
}

func historyHint(key string) string {
	if key == "" {
		return ""
	}
	return fmt.Sprintf(" (the history of key %q lists the versions)", Clip(key))
}

// upgrade gives r (of type req.To) req's status and title, and adds entry
// to its history; one already so is left as it is.
func (e *Engine) upgrade(ctx context.Context, r *Record, req PromoteRequest, entry Promotion) (PromoteResult, error) {
	if statusRank(r.Status) > statusRank(req.Status) {
		return PromoteResult{}, Invalid("record %s is already %s: a promotion never lowers a status (to change it, update the record's status)", r.ID, r.Status)
	}
	title := cmp.Or(req.Title, r.Title)
	if r.Status == req.Status && title == r.Title {
		return PromoteResult{RecordID: r.ID, Outcome: Unchanged, Record: r}, nil
	}
	if len(r.Promotions) >= MaxPromotions {
		return PromoteResult{}, Invalid("record %s has been promoted %d times, the limit: forget old versions or remember it anew", r.ID, len(r.Promotions))
	}
	base := *r
	r.base = &base
	r.Status, r.Title, r.UpdatedAt = req.Status, title, e.Now()
	r.Promotions = append(slices.Clip(r.Promotions), entry)
	if _, err := e.rewriteRecords(ctx, []*Record{r}, WriteOptions{}); err != nil {
		return PromoteResult{}, err
	}
	stored, err := e.store.Get(ctx, r.ID)
	return PromoteResult{RecordID: r.ID, Outcome: Upgraded, Record: stored}, err
}

// create stores built, a new record, with entry as its first promotion.
func (e *Engine) create(ctx context.Context, built *Record, entry Promotion) (PromoteResult, error) {
	now := e.Now()
	built.ID, built.CreatedAt, built.UpdatedAt = NewID(now), now, now
	built.Promotions = []Promotion{entry}
	res, err := e.rewriteRecords(ctx, []*Record{built}, WriteOptions{})
	if err != nil {
		return PromoteResult{}, err
	}
	if res.Inserted != 1 { // a record of this type and text appeared meanwhile
		return PromoteResult{}, Errorf(ECONFLICT, "a %s record with the same text was stored in project %s meanwhile: promote again to upgrade it", built.Type, built.Project)
	}
	stored, err := e.store.Get(ctx, built.ID)
	return PromoteResult{RecordID: built.ID, Outcome: Created, Record: stored}, err
}

// builtBefore is the record of built's type that already holds its text
// in its project (a promotion of the same sources), or nil. One the caller
// may not read is not there for it (Scope.CanRead): the promotion then
// creates a record of its own.
func (e *Engine) builtBefore(ctx context.Context, built *Record, clearance Sensitivity) (*Record, error) {
	f := Filter{Project: built.Project, Types: []Type{built.Type}, ContentHash: textnorm.Hash(built.Text),
		IncludeSuperseded: true, IncludeExpired: true, Clearance: ScopeFrom(ctx).Allow(clearance), Now: e.Now()}
	recs, _, err := e.store.List(ctx, f, 1, "")
	if err != nil || len(recs) == 0 {
		return nil, err
	}
	r := recs[0]
	switch {
	case r.Status == Superseded || r.Expired(e.Now()):
		return nil, Errorf(ECONFLICT, "record %s already holds this text as a %s record, but it is superseded or expired: forget it first, or promote its current version", r.ID, r.Type)
	}
	return r, nil
}

// derive builds the reusable record from srcs (oldest first): their texts,
// a blank line apart; the title given, else the single source's; the
// sources' shared kind and provenance (else note, and cited: it quotes
// them); their tags; the most sensitive of their sensitivities.
func derive(req PromoteRequest, srcs []*Record) (*Record, error) {
	first := srcs[0]
	r := &Record{Project: first.Project, Type: req.To, Kind: first.Kind, Title: req.Title, Status: req.Status,
		Provenance: first.Provenance, Sensitivity: Public}
	texts := make([]string, len(srcs))
	size := 0
	for i, s := range srcs {
		texts[i], size = s.Text, size+len(s.Text)+2
		r.Links = append(r.Links, Link{Type: LinkDerivedFrom, Target: s.ID})
		r.Tags = append(r.Tags, s.Tags...)
		if s.Kind != r.Kind {
			r.Kind = "note"
		}
		if s.Provenance != r.Provenance {
			r.Provenance = Cited
		}
		if slices.Index(sensitivities, s.Sensitivity) > slices.Index(sensitivities, r.Sensitivity) {
			r.Sensitivity = s.Sensitivity
		}
	}
	if size > MaxTextBytes {
		return nil, Invalid("the %d records' texts come to %d bytes, over the %d-byte limit of one record: promote fewer at a time", len(srcs), size, MaxTextBytes)
	}
	r.Text = strings.Join(texts, "\n\n")
	if len(srcs) == 1 {
		r.Title = cmp.Or(req.Title, first.Title)
		if s := first.Source; s != nil && s.URI != "" { // where it came from, not a chunk of its document
			r.Source = &Source{URI: s.URI, LineStart: s.LineStart, LineEnd: s.LineEnd}
		}
	}
	return r, nil
}
