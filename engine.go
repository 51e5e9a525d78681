package mneme

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/rank"
)

// Engine applies mneme's rules over a Store. Every surface calls it, so a
// CLI command, an MCP tool and an HTTP route give the same result.
type Engine struct {
	store    Store
	now      func() time.Time
	embedder Embedder // nil: records are stored without vectors
	// embedderErr says why there is no embedder (a model that failed to
	// load): recall reports it when it falls back to words alone.
	embedderErr error
	embedWait   time.Duration       // a write's wait for one call (see DefaultEmbedWait)
	hyde        HypothesisGenerator // nil: the deterministic generator
	hypotheses  hypothesisCache
	observers   []Observer
	cache       ResultCache             // nil: nothing is cached
	profile     rank.Profile            // ranking's tunables (rank.Default unless WithProfile)
	profiles    map[string]rank.Profile // named profiles a query may choose (Query.Profile)
	// recallDefaults fill the options a recall leaves out (nil: none).
	recallDefaults *RecallDefaults

	pending chan struct{}     // a write left records pending (KeepEmbedding wakes)
	mu      sync.Mutex        // guards notes
	notes   map[string]string // notes, for a store that keeps none (PendingStore)
}

// NewEngine returns an Engine over s, configured by opts.
func NewEngine(s Store, opts ...Option) *Engine {
	e := &Engine{store: s, now: time.Now, embedWait: DefaultEmbedWait, pending: make(chan struct{}, 1), profile: rank.Default()}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Store returns the engine's store.
func (e *Engine) Store() Store { return e.store }

// Close waits for the cache's writes (see ResultCache) and closes the
// store.
func (e *Engine) Close() error {
	if w, ok := e.cache.(interface{ Wait() }); ok {
		w.Wait()
	}
	return e.store.Close()
}

// WriteOptions control how records are checked before they are stored.
type WriteOptions struct {
	// Redact masks credentials found in any field (text, title, tags, key,
	// source, meta, ...) instead of refusing the write.
	Redact bool
	// RequireEmbedding fails the write with EUNAVAILABLE when the embedder
	// is down or slow, instead of storing its records pending.
	RequireEmbedding bool
	// ExactLinks makes a record whose text is already stored carry the
	// links it is written with, instead of adding them to the stored ones
	// (a summary links to the sources it was made from, not to every
	// source it once had).
	ExactLinks bool
	// Vectors are the vectors an import carries (export --vectors): the
	// records they belong to are not embedded again when the embedder is
	// the one they come from.
	Vectors *CarriedVectors
}

// Remember stores recs in one transaction: dedupe by content, supersession by
// key. A record with a credential in any field is refused (unless it is
// secret or opts.Redact is set) and then nothing is written.
func (e *Engine) Remember(ctx context.Context, recs []*Record, opts WriteOptions) (WriteResult, error) {
	if err := e.prepareAll(ctx, "remember", recs, opts); err != nil {
		return WriteResult{}, err
	}
	return e.write(ctx, recs, ModeRemember, opts)
}

// write embeds recs (or leaves them pending) and stores them in one
// transaction; an interrupted write says what it kept.
func (e *Engine) write(ctx context.Context, recs []*Record, mode WriteMode, opts WriteOptions) (WriteResult, error) {
	kept := 0
	p, err := e.embedForWrite(ctx, recs, &kept, opts.RequireEmbedding)
	if err != nil {
		return WriteResult{}, stopped(ctx, err, kept, 0)
	}
	res, err := e.store.Put(ctx, recs, mode, e.now().UTC())
	if err == nil {
		e.leftPending(&res, p)
	}
	return res, stopped(ctx, err, kept, 0)
}

// Import stores records as exported: ids, times, status and links kept.
// It only updates records the caller may read, and promotion history a
// server's caller brings is marked as imported by it.
func (e *Engine) Import(ctx context.Context, recs []*Record, opts WriteOptions) (WriteResult, error) {
	if err := e.prepareAll(ctx, "import", recs, opts); err != nil {
		return WriteResult{}, err
	}
	if err := e.importable(ctx, recs); err != nil {
		return WriteResult{}, err
	}
	if _, err := e.attachVectors(ctx, recs, opts.Vectors); err != nil {
		return WriteResult{}, err
	}
	res, err := e.write(ctx, recs, ModeImport, opts)
	if err != nil {
		return res, err
	}
	return res, e.registerDocuments(ctx, recs)
}

// rewriteRecords writes back records the Engine read and changed (an
// update, a promotion) as an import does, their promotion history as the
// Engine made it.
func (e *Engine) rewriteRecords(ctx context.Context, recs []*Record, opts WriteOptions) (WriteResult, error) {
	if err := e.prepareAll(ctx, "update", recs, opts); err != nil {
		return WriteResult{}, err
	}
	return e.write(ctx, recs, ModeImport, opts)
}

// Check validates a record as Remember would, without storing it: surfaces
// call it to reject bad input before they open a store.
func Check(r Record, opts WriteOptions) error { return prepare(&r, opts) }

// prepareAll checks that the caller may write (what names the use case),
// resolves each record's project under its scope and validates it.
func (e *Engine) prepareAll(ctx context.Context, what string, recs []*Record, opts WriteOptions) error {
	sc := ScopeFrom(ctx)
	if err := sc.mustWrite(what); err != nil {
		return err
	}
	if len(recs) == 0 {
		return Invalid("nothing to write: give at least one record")
	}
	for i, r := range recs {
		var err error
		if r.Project, err = sc.Resolve(r.Project); err == nil {
			err = prepare(r, opts)
		}
		r.exactLinks = opts.ExactLinks
		if err != nil {
			return inBatch(len(recs), i, err)
		}
	}
	return nil
}

// BatchError says which record of a batch was invalid, so a surface can
// name it in its own terms (a line number, an array index).
type BatchError struct {
	Index int
	Err   error
}

func (e *BatchError) Error() string { return ErrorMessage(e.Err) }

// inBatch is err of record i of n: a *BatchError, so a surface can name
// the record in its own terms, whose message names it by position when
// there are several.
func inBatch(n, i int, err error) error {
	msg := rawMessage(err)
	if n > 1 {
		msg = fmt.Sprintf("record %d: %s", i+1, msg)
	}
	return &Error{Code: ErrorCode(err), Message: msg, Err: &BatchError{Index: i, Err: err}}
}
func (e *BatchError) Unwrap() error { return e.Err }

func prepare(r *Record, opts WriteOptions) error {
	r.markGiven()
	if err := ValidateText(r.Text); err != nil {
		return err
	}
	if r.Sensitivity != Secret {
		if err := checkCredentials(r, opts.Redact); err != nil {
			return err
		}
	}
	return Prepare(r)
}

// importable checks, before the write, that the caller may read every
// record an import would update (see CheckImport, which the store applies
// again in the write's transaction), so the refusal names the line; and
// marks the promotions it brings that are not stored yet as imported by
// the caller (stampImported).
func (e *Engine) importable(ctx context.Context, recs []*Record) error {
	sc := ScopeFrom(ctx)
	if sc.local {
		return nil
	}
	olds := map[*Record]*Record{}
	for i, rec := range recs {
		var old *Record
		if rec.ID != "" {
			var err error
			old, err = e.store.Get(ctx, rec.ID)
			switch {
			case ErrorCode(err) == ENOTFOUND:
				old = nil
			case err != nil:
				return err
			case !sc.CanRead(old):
				return inBatch(len(recs), i, unwritableID(sc, rec.ID))
			}
		}
		stampImported(rec, old, sc.Name)
		if old != nil {
			olds[rec] = old
		}
	}
	return e.keepHiddenLinks(ctx, olds)
}

// keepHiddenLinks adds to each imported record the links of the stored
// record it updates (olds) that the caller could not see: an export
// leaves them out (hideLinks), so importing it back must not drop them.
func (e *Engine) keepHiddenLinks(ctx context.Context, olds map[*Record]*Record) error {
	stored := make([]*Record, 0, len(olds))
	for _, old := range olds {
		stored = append(stored, old)
	}
	shown := make([]*Record, len(stored))
	for i, old := range stored {
		c := *old
		shown[i] = &c
	}
	if err := e.hideLinks(ctx, shown); err != nil {
		return err
	}
	seen := make(map[string][]Link, len(shown))
	for _, c := range shown {
		seen[c.ID] = c.Links
	}
	for rec, old := range olds {
		for _, l := range old.Links {
			if !slices.Contains(seen[old.ID], l) {
				rec.Links = unionLinks(rec.Links, []Link{l})
			}
		}
	}
	return nil
}

// Get returns one record visible at clearance (capped by the caller's
// scope). A record the caller may not read is not found, with the same
// message as an id nothing has: a caller without clearance cannot tell a
// secret record from a missing one. Its links to records the caller may
// not read are left out.
func (e *Engine) Get(ctx context.Context, id string, clearance Sensitivity) (*Record, error) {
	r, err := e.read(ctx, id, clearance)
	if err != nil {
		return nil, err
	}
	return r, e.hideLinks(ctx, []*Record{r})
}

// GetAll is Get of each id, in one store call where the store can
// (BatchGetter): the records in the order of ids, or the error Get gives
// for the first id that fails.
func (e *Engine) GetAll(ctx context.Context, ids []string, clearance Sensitivity) ([]*Record, error) {
	for _, id := range ids {
		if !ValidID(id) {
			return nil, invalidID(id)
		}
	}
	sc := ScopeFrom(ctx)
	clearance = cmp.Or(sc.Allow(clearance), Internal)
	got, err := e.getMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*Record, len(ids))
	for i, id := range ids {
		if out[i] = got[id]; !sees(sc, out[i], clearance) {
			return nil, notFound(sc, id, clearance)
		}
	}
	return out, e.hideLinksKnown(ctx, out, got)
}

// sees reports whether a caller of scope sc reading at clearance may read
// r (nil: nothing has the id).
func sees(sc Scope, r *Record, clearance Sensitivity) bool {
	return r != nil && sc.Covers(r.Project) && r.Visible(clearance)
}

func invalidID(id string) error {
	return Invalid("%q is not a record id: ids look like 0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Clip(id))
}

// read is Get with every link as stored: for a use case that writes the
// record back (a hidden link must survive the caller's change).
func (e *Engine) read(ctx context.Context, id string, clearance Sensitivity) (*Record, error) {
	if !ValidID(id) {
		return nil, invalidID(id)
	}
	sc := ScopeFrom(ctx)
	clearance = cmp.Or(sc.Allow(clearance), Internal)
	r, err := e.store.Get(ctx, id)
	switch {
	case ErrorCode(err) == ENOTFOUND || err == nil && !sees(sc, r, clearance):
		return nil, notFound(sc, id, clearance)
	case err != nil:
		return nil, err
	}
	return r, nil
}

// notFound is the answer for an id the caller cannot see, whether nothing
// has it or the caller may not read it. A caller that could read secret
// records with a higher clearance is reminded of it, whatever the id.
func notFound(sc Scope, id string, clearance Sensitivity) error {
	if sc.Reads() == Secret && clearance != Secret {
		return Errorf(ENOTFOUND, "no record with id %s at clearance %s (secret records need {{clearance=secret}})", id, clearance)
	}
	return Errorf(ENOTFOUND, "no record with id %s", id)
}

// List returns a page of records passing f, newest first.
func (e *Engine) List(ctx context.Context, f Filter, limit int, cursor string) ([]*Record, string, error) {
	if err := e.checkFilter(ctx, &f); err != nil {
		return nil, "", err
	}
	if limit <= 0 || limit > MaxK {
		return nil, "", Invalid("limit %d is out of range: use 1 to %d", limit, MaxK)
	}
	recs, next, err := e.store.List(ctx, f, limit, cursor)
	if err == nil {
		err = e.hideLinks(ctx, recs)
	}
	return recs, next, err
}

// Each calls fn for every record passing f, page by page, without the
// links to records the caller may not read (one store call a page).
func (e *Engine) Each(ctx context.Context, f Filter, fn func(*Record) error) error {
	if err := e.checkFilter(ctx, &f); err != nil {
		return err
	}
	cursor := ""
	for {
		recs, next, err := e.store.List(ctx, f, MaxK, cursor)
		if err == nil {
			err = e.hideLinks(ctx, recs)
		}
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := fn(r); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

// History returns every version of (project, key), oldest first.
func (e *Engine) History(ctx context.Context, project, key string, clearance Sensitivity) ([]*Record, error) {
	if key == "" {
		return nil, Invalid("history needs a key: {{key}}")
	}
	f := Filter{Project: project, Key: key, IncludeSuperseded: true, IncludeExpired: true, Clearance: clearance}
	var out []*Record
	err := e.Each(ctx, f, func(r *Record) error { out = append(out, r); return nil })
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// Stats counts the records the caller's scope covers, the secret ones only
// for a scope with clearance secret, and those waiting for a vector, with
// the embedder's last failure.
func (e *Engine) Stats(ctx context.Context) (Stats, error) {
	st, err := e.store.Stats(ctx, e.now().UTC())
	if err == nil {
		err = e.addPending(ctx, &st)
	}
	if err != nil {
		return Stats{}, err
	}
	sc := ScopeFrom(ctx)
	if len(sc.Projects) == 0 { // coverage counts every project's records
		if st.Embedders, err = e.VectorSets(ctx); err != nil {
			return Stats{}, err
		}
	}
	if sc.Allow(Secret) != Secret && st.Secret > 0 && st.SecretOnly == nil {
		return Stats{}, Errorf(EINTERNAL, "the store does not count its secret records apart (Stats.SecretOnly), so it cannot count what token %q may see", sc.Name)
	}
	return sc.Stats(st), nil
}

// Ping checks that the store answers, with its cheapest read (the home's
// embedder, one row): what a liveness probe needs, without Stats' counts.
func (e *Engine) Ping(ctx context.Context) error {
	_, _, err := e.store.HomeEmbedder(ctx)
	return err
}

// addPending adds to st the records waiting for a vector, by project, and
// the embedder's last failure.
func (e *Engine) addPending(ctx context.Context, st *Stats) error {
	var err error
	if st.EmbedderError, err = e.health(ctx); err != nil {
		return err
	}
	ps, ok := e.store.(PendingStore)
	if !ok {
		return nil
	}
	byProject, err := ps.Pending(ctx)
	for i := range st.Projects {
		p := &st.Projects[i]
		p.PendingEmbeddings = byProject[p.Project]
		st.PendingEmbeddings += p.PendingEmbeddings
	}
	return err
}

// Now is the Engine's clock: surfaces use it for times they compute
// (TTLs, ages), so they agree with the times the store stamps.
func (e *Engine) Now() time.Time { return e.now().UTC() }

// checkFilter applies the caller's scope to f and validates it.
func (e *Engine) checkFilter(ctx context.Context, f *Filter) error {
	if err := scoped(ctx, f); err != nil {
		return err
	}
	f.Now = e.now().UTC()
	return f.Check()
}

// round keeps six decimals: enough to rank, short to read.
func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }
