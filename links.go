package mneme

import (
	"context"
	"slices"
	"strings"
)

// MaxLinks bounds the links one record carries through Link: a caller
// cannot grow a record without end, one call at a time.
const MaxLinks = 1000

// LinkRequest names a typed edge: From links to To by Rel (one of
// relates_to, derived_from, follows, supersedes). For Unlink, an empty Rel
// removes every link from From to To.
type LinkRequest struct {
	From string `json:"from"`
	To   string `json:"to"`
	Rel  string `json:"rel,omitempty"`
}

// LinkResult is a link or unlink's outcome: whether the record changed,
// and From's record as stored.
type LinkResult struct {
	Changed bool    `json:"changed"`
	Record  *Record `json:"record"`
}

// LinkRelations are the relations a link may have.
func LinkRelations() []string { return slices.Clone(linkTypes) }

// Check validates the request's ids and relation (required unless
// unlinking), as Link and Unlink do before they read anything: surfaces
// call it to reject bad input before they open a store.
func (l LinkRequest) Check(unlink bool) error {
	switch {
	case !ValidID(l.From):
		return invalidID(l.From)
	case !ValidID(l.To):
		return Invalid("link target %q is not a record id: ids look like 0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Clip(l.To))
	case l.From == l.To:
		return Invalid("a record cannot link to itself: give two different ids")
	case l.Rel == "" && unlink:
		return nil
	case l.Rel == "":
		return Invalid("a link needs a relation: {{rel}} one of %s", strings.Join(linkTypes, ", "))
	case !slices.Contains(linkTypes, l.Rel):
		return Invalid("relation %q is not valid: use one of %s", Clip(l.Rel), strings.Join(linkTypes, ", "))
	}
	return nil
}

// Link adds the typed link req.From → req.To. Both records must be ones
// the caller may read at clearance (capped by its scope) and write; a
// target it may not read is refused as a missing one is, with the same
// message. Linking twice changes nothing.
func (e *Engine) Link(ctx context.Context, req LinkRequest, clearance Sensitivity) (LinkResult, error) {
	return e.relink(ctx, req, false, clearance)
}

// Unlink removes the links req.From → req.To of relation req.Rel (every
// relation when it is ""), under the rules of Link. Removing a link that
// is not there changes nothing.
func (e *Engine) Unlink(ctx context.Context, req LinkRequest, clearance Sensitivity) (LinkResult, error) {
	return e.relink(ctx, req, true, clearance)
}

func (e *Engine) relink(ctx context.Context, req LinkRequest, unlink bool, clearance Sensitivity) (LinkResult, error) {
	what := "link"
	if unlink {
		what = "unlink"
	}
	if err := ScopeFrom(ctx).mustWrite(what); err != nil {
		return LinkResult{}, err
	}
	if err := req.Check(unlink); err != nil {
		return LinkResult{}, err
	}
	return rewrite(ctx, func() (LinkResult, error) { return e.relinkOnce(ctx, req, unlink, clearance) })
}

// relinkOnce is one attempt of relink: read both ends, change From's
// links, write it back as Patch does (its hidden links kept: it is read
// from the store, not as the caller sees it).
func (e *Engine) relinkOnce(ctx context.Context, req LinkRequest, unlink bool, clearance Sensitivity) (LinkResult, error) {
	r, err := e.read(ctx, req.From, clearance)
	if err != nil {
		return LinkResult{}, err
	}
	to, err := e.read(ctx, req.To, clearance)
	if ErrorCode(err) == ENOTFOUND {
		return LinkResult{}, Invalid("the link's target: %s; nothing was changed", rawMessage(err))
	} else if err != nil {
		return LinkResult{}, err
	}
	links := slices.DeleteFunc(slices.Clone(r.Links), func(l Link) bool {
		return unlink && l.Target == req.To && (req.Rel == "" || l.Type == req.Rel)
	})
	if !unlink {
		links = unionLinks(links, []Link{{Type: req.Rel, Target: req.To}})
	}
	if len(links) == len(r.Links) {
		return LinkResult{Record: e.shown(ctx, r)}, nil
	}
	if len(links) > MaxLinks {
		return LinkResult{}, Invalid("record %s has %d links, the limit: unlink some first", r.ID, MaxLinks)
	}
	base := *r
	r.base, r.Links = &base, links
	if !unlink && req.Rel == LinkDerivedFrom && to.Sensitivity == Secret {
		r.Sensitivity = Secret // what derives from a secret record is secret (RaiseDerived)
	}
	r.ContentHash, r.UpdatedAt = "", e.now().UTC()
	if _, err := e.rewriteRecords(ctx, []*Record{r}, WriteOptions{}); err != nil {
		return LinkResult{}, err
	}
	stored, err := e.store.Get(ctx, r.ID)
	if err != nil {
		return LinkResult{}, err
	}
	return LinkResult{Changed: true, Record: e.shown(ctx, stored)}, nil
}

// shown is r as it leaves the Engine for the caller of ctx: without links
// to records the caller may not read. On error (the store failing to
// say), r is shown without any links rather than with hidden ones.
func (e *Engine) shown(ctx context.Context, r *Record) *Record {
	if err := e.hideLinks(ctx, []*Record{r}); err != nil {
		r.Links = nil
	}
	return r
}

// linkTargets are the distinct targets of recs' links, except recs
// themselves.
func linkTargets(recs []*Record) []string {
	own := make(map[string]bool, len(recs))
	for _, r := range recs {
		own[r.ID] = true
	}
	var out []string
	for _, r := range recs {
		for _, l := range r.Links {
			if !own[l.Target] {
				own[l.Target] = true
				out = append(out, l.Target)
			}
		}
	}
	return out
}

// seesAll reports whether nothing is hidden from sc: every project, every
// sensitivity.
func (s Scope) seesAll() bool { return len(s.Projects) == 0 && s.Reads() == Secret }

// hideLinks removes from recs (records the caller of ctx may read, as they
// leave the Engine) the links to records it may not read (Scope.CanRead),
// or that are gone: a link must not tell a record's id to a caller from
// whom the record is hidden. One store call for all of recs.
func (e *Engine) hideLinks(ctx context.Context, recs []*Record) error {
	return e.hideLinksKnown(ctx, recs, nil)
}

// hideLinksKnown is hideLinks reading only the targets known (records
// read already, by id) does not hold.
func (e *Engine) hideLinksKnown(ctx context.Context, recs []*Record, known map[string]*Record) error {
	sc := ScopeFrom(ctx)
	if sc.seesAll() {
		return nil
	}
	found, err := e.getKnown(ctx, linkTargets(recs), known)
	if err != nil {
		return err
	}
	own := make(map[string]bool, len(recs))
	for _, r := range recs {
		own[r.ID] = true
	}
	for _, r := range recs {
		if len(r.Links) == 0 {
			continue
		}
		kept := make([]Link, 0, len(r.Links))
		for _, l := range r.Links {
			if t, ok := found[l.Target]; own[l.Target] || ok && sc.CanRead(t) {
				kept = append(kept, l)
			}
		}
		r.Links = kept
		if len(kept) == 0 {
			r.Links = nil
		}
	}
	return nil
}

// getKnown returns the records with the given ids, reading those known
// (records read already, by id) does not hold.
func (e *Engine) getKnown(ctx context.Context, ids []string, known map[string]*Record) (map[string]*Record, error) {
	var todo []string
	out := make(map[string]*Record, len(ids))
	for _, id := range ids {
		if r := known[id]; r != nil {
			out[id] = r
		} else {
			todo = append(todo, id)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	more, err := e.getMany(ctx, todo)
	for id, r := range more {
		out[id] = r
	}
	return out, err
}

// knownRecords indexes recs by id.
func knownRecords(recs []*Record) map[string]*Record {
	out := make(map[string]*Record, len(recs))
	for _, r := range recs {
		out[r.ID] = r
	}
	return out
}

// getMany reads the records with the given ids, in one call when the
// store can (BatchGetter); missing ids are absent from the map.
func (e *Engine) getMany(ctx context.Context, ids []string) (map[string]*Record, error) {
	out := make(map[string]*Record, len(ids))
	if bg, ok := e.store.(BatchGetter); ok {
		recs, err := bg.GetMany(ctx, ids)
		for _, r := range recs {
			out[r.ID] = r
		}
		return out, err
	}
	for _, id := range ids {
		r, err := e.store.Get(ctx, id)
		switch {
		case ErrorCode(err) == ENOTFOUND:
		case err != nil:
			return nil, err
		default:
			out[id] = r
		}
	}
	return out, nil
}
