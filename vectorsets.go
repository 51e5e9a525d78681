package mneme

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// VectorSets is an optional role: a store that keeps the vectors of
// embedders other than the home's beside the home's (a vector set each),
// so that the home can change embedder without going offline: the new
// set is built while recall answers from the home's, then the home
// switches to it in one transaction (see Engine.ReindexTo).
type VectorSets interface {
	// AddVectorSet starts keeping vectors from info beside the home's (no
	// change if it is kept already, or is the home's). Recall does not
	// read it.
	AddVectorSet(ctx context.Context, info EmbedderInfo) error
	// VectorSets lists the home's set (first) and the kept ones, each with
	// its coverage.
	VectorSets(ctx context.Context) ([]VectorSet, error)
	// UnembeddedIn is VectorStore.Unembedded for the set of info.
	UnembeddedIn(ctx context.Context, info EmbedderInfo, cursor string, limit int) ([]*Record, string, error)
	// PutVectorsIn is VectorStore.PutVectors into the set of info.
	PutVectorsIn(ctx context.Context, info EmbedderInfo, recs []*Record) error
	// SwitchEmbedder makes the set of info the home's, in one transaction
	// and only when every non-secret record has a vector in it; else it
	// changes nothing and returns how many lack one. keepOld keeps the
	// former home's set (a switch back to it is then instant); without it,
	// that set is deleted.
	SwitchEmbedder(ctx context.Context, info EmbedderInfo, keepOld bool) (missing int, err error)
	// DropVectorSet deletes the kept set of info (never the home's).
	DropVectorSet(ctx context.Context, info EmbedderInfo) error
}

// VectorSet is one embedder's vectors in a store, and how many of the
// records that could have one (not secret) have one.
type VectorSet struct {
	Embedder   EmbedderInfo `json:"embedder"`
	Home       bool         `json:"home"`
	Vectors    int          `json:"vectors"`
	Embeddable int          `json:"embeddable"`
}

// SetKey names a vector set: two embedders share one only when provider,
// model, version and dimension agree.
func SetKey(info EmbedderInfo) string {
	return fmt.Sprintf("%s\x00%s\x00%d", info.ID(), info.Version, info.Dim)
}

// HasSet reports whether sets hold the vector set of info.
func HasSet(sets []EmbedderInfo, info EmbedderInfo) bool {
	return slices.ContainsFunc(sets, func(o EmbedderInfo) bool { return sameSet(o, info) })
}

// WithoutSet is sets less the vector set of info (sets is left as it is).
func WithoutSet(sets []EmbedderInfo, info EmbedderInfo) []EmbedderInfo {
	return slices.DeleteFunc(slices.Clone(sets), func(o EmbedderInfo) bool { return sameSet(o, info) })
}

// sameSet reports whether two embedders write the same vector set.
func sameSet(a, b EmbedderInfo) bool { return SetKey(a) == SetKey(b) }

// ReindexOptions say how Engine.ReindexTo switches.
type ReindexOptions struct {
	// KeepOld keeps the former home embedder's vectors after the switch,
	// so that switching back is instant.
	KeepOld bool
}

// maxCatchUps bounds the rounds a reindex spends embedding the records
// written while it built the new set, before it gives up switching.
const maxCatchUps = 10

// ReindexTo makes target the home's embedder without taking recall
// offline: its vectors are built beside the home's (recall and writes go
// on with the home's meanwhile), the records written during the build are
// caught up, and the home switches in one transaction once every record
// has a vector from target. An interrupted run leaves the home's embedder
// in charge; the next run resumes from the vectors already built. A target
// that does not answer is refused (EINVALID) before anything changes.
//
// This is the reindex job's one entry point: a job ledger records its
// runs here.
func (e *Engine) ReindexTo(ctx context.Context, target Embedder, opts ReindexOptions) (ReindexResult, error) {
	started := e.now()
	res, err := e.reindexTo(ctx, target, opts)
	res.Took = e.now().Sub(started).Round(time.Millisecond).String()
	return res, err
}

func (e *Engine) reindexTo(ctx context.Context, target Embedder, opts ReindexOptions) (ReindexResult, error) {
	if err := ScopeFrom(ctx).mustOwnAll("reindex"); err != nil {
		return ReindexResult{}, err
	}
	if target == nil {
		return ReindexResult{}, Invalid("no embedder to reindex with: choose one with --embedder")
	}
	info := target.Info()
	res := ReindexResult{Embedder: info}
	builder := &Engine{store: e.store, now: e.now, embedder: target, embedWait: e.embedWait, observers: e.observers, pending: make(chan struct{}, 1)}
	if err := probe(ctx, target); err != nil {
		return res, err
	}
	home, hasHome, err := e.store.HomeEmbedder(ctx)
	if err != nil {
		return res, err
	}
	vs, ok := e.store.(VectorSets)
	if !hasHome || sameSet(home, info) || !ok || otherDim(home, info) {
		// Nothing to keep answering with, or a set that cannot be built
		// beside the home's (stores key vectors by embedder, not by
		// dimension): embed in place, recall degraded to words meanwhile.
		res.Previous = &home
		if !hasHome {
			res.Previous = nil
		}
		return res, builder.reindexInPlace(ctx, &res)
	}
	res.Previous = &home
	if err := checkSetKeys(ctx, vs, info); err != nil {
		return res, err
	}
	if err := vs.AddVectorSet(ctx, info); err != nil {
		return res, err
	}
	builder.store = stagedStore{Store: e.store, sets: vs, info: info}
	for range maxCatchUps {
		if err := builder.embedUnembedded(ctx, "reindex", "", false, &res.Embedded); err != nil {
			return res, err
		}
		missing, err := vs.SwitchEmbedder(ctx, info, opts.KeepOld)
		if err != nil || missing == 0 {
			res.Switched = err == nil
			res.KeptOld = res.Switched && opts.KeepOld
			return res, err
		}
	}
	return res, Errorf(EUNAVAILABLE, "records are written faster than %s embeds them: the home still uses %s; run the reindex again when writes slow down (the vectors built so far are kept)", info.ID(), home.ID())
}

// probe asks target for one vector: a reindex to an embedder that does
// not answer, or answers with the wrong dimension, changes nothing.
func probe(ctx context.Context, target Embedder) error {
	info := target.Info()
	_, err := embedChecked(ctx, target, []string{"mneme"})
	if err != nil && ctx.Err() == nil {
		return Invalid("embedder %s does not answer (%s): nothing changed; check that it runs, or choose another", info.ID(), ErrorMessage(err))
	}
	return err
}

// reindexInPlace is the reindex of a home with no vectors to keep
// answering with (none yet, or the same embedder's): it makes target the
// home's and embeds every record without a vector.
func (e *Engine) reindexInPlace(ctx context.Context, res *ReindexResult) error {
	if err := e.store.SetHomeEmbedder(ctx, res.Embedder); err != nil {
		return stopped(ctx, err, 0, 0)
	}
	res.Switched = true
	return e.embedUnembedded(ctx, "reindex", "", false, &res.Embedded)
}

// otherDim reports whether b is a's model (provider, model and version)
// at another dimension.
func otherDim(a, b EmbedderInfo) bool {
	return a.ID() == b.ID() && a.Version == b.Version && a.Dim != b.Dim
}

// checkSetKeys refuses a target that is another dimension of an embedder
// (provider, model and version) a set is kept for: stores key a vector
// by those, not by its dimension.
func checkSetKeys(ctx context.Context, vs VectorSets, info EmbedderInfo) error {
	sets, err := vs.VectorSets(ctx)
	if err != nil {
		return err
	}
	for _, s := range sets {
		o := s.Embedder
		if otherDim(o, info) {
			return Invalid("this home keeps vectors from %s version %s at %d dimensions: the same model at %d dimensions cannot be built beside them; drop that set first, or reindex with another model",
				o.ID(), o.Version, o.Dim, info.Dim)
		}
	}
	return nil
}

// stagedStore is the store as a reindex's builder sees it: the set being
// built stands for the home's vectors, so the embedding job's code fills
// it unchanged.
type stagedStore struct {
	Store
	sets VectorSets
	info EmbedderInfo
}

func (s stagedStore) HomeEmbedder(context.Context) (EmbedderInfo, bool, error) {
	return s.info, true, nil
}

func (s stagedStore) Unembedded(ctx context.Context, cursor string, limit int) ([]*Record, string, error) {
	return s.sets.UnembeddedIn(ctx, s.info, cursor, limit)
}

func (s stagedStore) PutVectors(ctx context.Context, recs []*Record) error {
	return s.sets.PutVectorsIn(ctx, s.info, recs)
}

// VectorSets lists the store's vector sets with their coverage (none for
// a store without the role): what stats and doctor show.
func (e *Engine) VectorSets(ctx context.Context) ([]VectorSet, error) {
	vs, ok := e.store.(VectorSets)
	if !ok {
		return nil, nil
	}
	return vs.VectorSets(ctx)
}
