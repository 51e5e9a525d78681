package mneme

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// stopped turns the error of a write whose context ended into an
// *Interrupted saying what was kept (cached embeddings, written records).
func stopped(ctx context.Context, err error, cached, written int) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	in := &Interrupted{Cached: cached, Written: written, Err: context.Cause(ctx)}
	return &Error{Code: EUNAVAILABLE, Message: in.Error(), Err: in}
}

// EmbedBatch is how many texts go to the embedder at once.
const EmbedBatch = 64

// embedderUnavailable is the error that WithEmbedderError recorded.
func (e *Engine) embedderUnavailable() error {
	return &Error{Code: EUNAVAILABLE, Message: rawMessage(e.embedderErr), Err: e.embedderErr}
}

// Embedder returns the engine's embedder, or nil.
func (e *Engine) Embedder() Embedder { return e.embedder }

// TextHash is the embedding cache key of a text: hex sha256 of its bytes.
func TextHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// checkEmbedder refuses to mix vectors: the configured embedder must be the
// one the home's vectors come from (a home without one takes any: see
// bindEmbedder).
func (e *Engine) checkEmbedder(ctx context.Context) error {
	if e.embedder == nil {
		return nil
	}
	want := e.embedder.Info()
	home, ok, err := e.store.HomeEmbedder(ctx)
	if err != nil || !ok {
		return err
	}
	if !sameSet(home, want) && !e.followHome(home) {
		return Errorf(ECONFLICT, "the stored vectors come from %s version %s (%d dimensions), but the configured embedder is %s version %s (%d dimensions): run `mneme reindex` to re-embed everything with the configured one, or configure %s again",
			home.ID(), home.Version, home.Dim, want.ID(), want.Version, want.Dim, home.ID())
	}
	return nil
}

// bindEmbedder makes the configured embedder the home's when the home has
// none. It is called only once the embedder gave valid vectors: one that
// fails (a wrong dimension, down) does not become the home's, so the
// corrected configuration works at once.
func (e *Engine) bindEmbedder(ctx context.Context) error {
	if _, ok, err := e.store.HomeEmbedder(ctx); err != nil || ok {
		return err
	}
	if err := e.store.SetHomeEmbedder(ctx, e.embedder.Info()); err != nil {
		return err
	}
	return e.checkEmbedder(ctx) // another process may have bound another first
}

// probeEmbedder asks the embedder for one vector: whether it answers, and
// with vectors of its announced dimension.
func (e *Engine) probeEmbedder(ctx context.Context) error {
	_, _, err := e.embedTexts(ctx, []string{"mneme"}, nil, false)
	return err
}

// embedRecords sets the Vector of every non-secret record, from the cache
// where it can, else from the embedder in batches, counting in *kept the
// embeddings it cached as it went (see embedTexts). bounded: a write's
// calls, which give up on a slow embedder (see callEmbedder).
func (e *Engine) embedRecords(ctx context.Context, recs []*Record, kept *int, bounded bool) error {
	todo := embeddable(recs)
	if e.embedder == nil {
		if e.embedderErr != nil && len(todo) > 0 {
			return e.embedderUnavailable()
		}
		return nil
	}
	if err := e.checkEmbedder(ctx); err != nil {
		return err
	}
	of := SetKey(e.embedder.Info()) // as the checked embedder: a switch meanwhile drops these vectors (see Record.VectorOf)
	texts, err := e.embedInputs(ctx, todo)
	if err != nil {
		return err
	}
	vecs, uncached, err := e.embedTexts(ctx, texts, kept, bounded)
	if err == nil && len(todo) > 0 {
		err = e.bindEmbedder(ctx)
	}
	for i, r := range todo {
		if err == nil {
			r.Vector, r.EmbedHash, r.VectorOf = vecs[i], uncached[i], of
		}
	}
	return err
}

// embeddable returns the records to embed: the non-secret ones that do
// not carry their vector already (an import's, see attachVectors).
func embeddable(recs []*Record) []*Record {
	var out []*Record
	for _, r := range recs {
		if r.Sensitivity != Secret && r.Vector == nil {
			out = append(out, r)
		}
	}
	return out
}

// embedInputs returns what each record's vector is computed from: its text
// after the context a reader of the text alone would miss. A conversation
// turn follows the turn before it in its session ("what pet do you have?"
// gives meaning to "Oscar, my guinea pig"), so a question finds the answer
// and not only other questions; a titled record (a document chunk's
// heading path) follows its title.
func (e *Engine) embedInputs(ctx context.Context, recs []*Record) ([]string, error) {
	prev := map[*Record]*Record{}
	last := map[[2]string]*Record{} // by project and session, within the batch
	for _, r := range sortedByEvent(recs) {
		if r.SessionID == "" {
			continue
		}
		key := [2]string{r.Project, r.SessionID}
		if p := last[key]; p != nil {
			prev[r] = p
		} else {
			probe := *r // not stored yet: it happens now, after what is stored
			if probe.OccurredAt == nil && probe.CreatedAt.IsZero() {
				probe.CreatedAt = e.now()
			}
			before, _, err := e.store.Neighbours(ctx, &probe, 1)
			if err != nil {
				return nil, err
			}
			if len(before) > 0 && before[0].Sensitivity != Secret {
				prev[r] = before[0]
			}
		}
		if r.Sensitivity != Secret {
			last[key] = r
		}
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Text
		if p := prev[r]; p != nil {
			out[i] = p.Text + "\n" + r.Text
		}
		if r.Title != "" {
			out[i] = r.Title + "\n" + out[i]
		}
	}
	return out, nil
}

// sortedByEvent returns recs in event-time order (stable).
func sortedByEvent(recs []*Record) []*Record {
	out := slices.Clone(recs)
	slices.SortStableFunc(out, func(a, b *Record) int { return a.EventTime().Compare(b.EventTime()) })
	return out
}

// embedTexts embeds texts through the cache and the embedder. With kept
// set (writes), work of more than one batch caches each batch as the
// embedder returns it and counts it in *kept, so a write stopped midway
// resumes from the cache when it runs again; a single batch is cached by
// the write itself, at no extra cost. uncached[i] is the cache key of
// texts[i] when its vector is not in the cache yet (the write caches it),
// else "". bounded calls give up on a slow embedder (callEmbedder).
func (e *Engine) embedTexts(ctx context.Context, texts []string, kept *int, bounded bool) (vecs [][]float32, uncached []string, err error) {
	info := e.embedder.Info()
	hashes := make([]string, len(texts))
	for i, t := range texts {
		hashes[i] = TextHash(t)
	}
	cached, err := e.store.CachedVectors(ctx, info, hashes)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]float32, len(texts))
	uncached = make([]string, len(texts))
	var missing []int
	for i, h := range hashes {
		if v, ok := cached[h]; ok && len(v) == info.Dim {
			out[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	keep := kept != nil && len(missing) > EmbedBatch
	for start := 0; start < len(missing); start += EmbedBatch {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		idx := missing[start:min(start+EmbedBatch, len(missing))]
		batch := make([]string, len(idx))
		for j, i := range idx {
			batch[j] = texts[i]
		}
		vecs, err := e.callEmbedder(ctx, batch, bounded)
		if err == nil {
			err = CheckVectors(info, batch, vecs)
		}
		if err != nil {
			return nil, nil, err
		}
		if keep {
			batchHashes := make([]string, len(idx))
			for j, i := range idx {
				batchHashes[j] = hashes[i]
			}
			if err := e.store.CacheVectors(ctx, info, batchHashes, vecs); err != nil {
				return nil, nil, err
			}
			*kept += len(idx)
		}
		for j, i := range idx {
			out[i] = vecs[j]
			if !keep {
				uncached[i] = hashes[i]
			}
		}
		e.progress("embed", start+len(idx), len(missing))
	}
	return out, uncached, nil
}

// Embed returns the vectors of texts from the configured embedder (through
// the cache).
func (e *Engine) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.embedder == nil {
		return nil, Invalid("no embedder is configured: choose one with --embedder")
	}
	for _, t := range texts {
		if err := ValidateText(t); err != nil {
			return nil, err
		}
	}
	vecs, _, err := e.embedTexts(ctx, texts, nil, false)
	return vecs, err
}

// ReindexResult counts what Reindex did.
type ReindexResult struct {
	Embedder EmbedderInfo `json:"embedder"`
	Embedded int          `json:"embedded"`
	// Previous is the home's embedder before the reindex (nil: none);
	// Switched says the home now uses Embedder, KeptOld that Previous's
	// vectors are kept for a switch back (ReindexTo).
	Previous *EmbedderInfo `json:"previous,omitempty"`
	Switched bool          `json:"switched,omitempty"`
	KeptOld  bool          `json:"kept_old,omitempty"`
	Took     string        `json:"took,omitempty"`
}

// Reindex makes the configured embedder the home's: vectors from any other
// are dropped, and every non-secret record without a vector is embedded.
func (e *Engine) Reindex(ctx context.Context) (ReindexResult, error) {
	if err := ScopeFrom(ctx).mustOwnAll("reindex"); err != nil {
		return ReindexResult{}, err
	}
	if e.embedder == nil {
		return ReindexResult{}, Invalid("no embedder is configured: choose one with --embedder")
	}
	res := ReindexResult{Embedder: e.embedder.Info()}
	if err := e.store.SetHomeEmbedder(ctx, res.Embedder); err != nil {
		return res, stopped(ctx, err, 0, 0)
	}
	return res, e.embedUnembedded(ctx, "reindex", "", false, &res.Embedded)
}
