package mneme

import (
	"cmp"
	"context"
	"time"
)

// pending is what a write leaves without a vector, and why.
type pending struct {
	n      int
	reason string
}

// embedForWrite embeds recs for a write. A write does not wait on an
// embedder that is down or slow: unless it requires embedding, its records
// are stored without vectors, pending until the embedding job
// (EmbedPending) embeds them, and the failure is recorded so that the
// writes after it skip the embedder until its backoff ends.
func (e *Engine) embedForWrite(ctx context.Context, recs []*Record, kept *int, require bool) (pending, error) {
	n := len(embeddable(recs))
	last, err := e.health(ctx)
	switch {
	case err != nil:
		return pending{}, err
	case n == 0 || e.embedder == nil && (require || e.embedderErr == nil):
		return pending{}, e.embedRecords(ctx, recs, kept, false)
	case e.embedder == nil: // it could not load
		h, err := e.failed(ctx, last, "", e.embedderErr)
		return pending{n, pendingReason(h)}, err
	case !require && last.skips(e.embedder.Info().ID(), e.now()):
		return pending{n, pendingReason(last)}, e.checkEmbedder(ctx)
	}
	err = e.embedRecords(ctx, recs, kept, !require)
	h, terr := e.track(ctx, last, err)
	switch {
	case terr != nil:
		return pending{}, terr
	case err == nil || require || h == nil:
		return pending{}, err
	}
	return pending{n, pendingReason(h)}, nil
}

// leftPending says in res what the write left pending (of the records it
// wrote), and wakes the embedding job.
func (e *Engine) leftPending(res *WriteResult, p pending) {
	res.PendingEmbeddings = min(p.n, res.Inserted+res.Updated)
	if res.PendingEmbeddings == 0 {
		return
	}
	res.PendingReason = p.reason
	select {
	case e.pending <- struct{}{}:
	default:
	}
}

// SyncResult counts what EmbedPending did.
type SyncResult struct {
	Embedder EmbedderInfo `json:"embedder"`
	Embedded int          `json:"embedded"`
	// Pending counts the records still without a vector (secret records
	// are never embedded, so never count).
	Pending int `json:"pending"`
}

// EmbedPending embeds the records stored without a vector (pending: the
// embedder was down, slow or missing when they were written) in batches,
// walking them with a cursor kept in the store: a run cut short (a crash,
// Ctrl-C, the embedder failing again) resumes after the last batch it
// saved, then wraps around once to the records before it. Secret records
// are never embedded. The embedder is asked even while it is recorded
// down; how it answers is recorded (see EmbedderHealth).
func (e *Engine) EmbedPending(ctx context.Context) (SyncResult, error) {
	if err := ScopeFrom(ctx).mustOwnAll("sync"); err != nil {
		return SyncResult{}, err
	}
	if e.embedder == nil {
		if e.embedderErr != nil {
			return SyncResult{}, e.embedderUnavailable()
		}
		return SyncResult{}, Invalid("no embedder is configured: choose one with --embedder")
	}
	res := SyncResult{Embedder: e.embedder.Info()}
	if err := e.checkEmbedder(ctx); err != nil {
		return res, err
	}
	last, err := e.health(ctx)
	if err != nil {
		return res, err
	}
	if last, err = e.bindForSync(ctx, last); err != nil {
		return res, err
	}
	cursor, err := e.note(ctx, cursorNote)
	if err != nil {
		return res, err
	}
	err = e.embedUnembedded(ctx, "sync", cursor, true, &res.Embedded)
	if _, terr := e.track(ctx, last, err); err == nil {
		err = terr
	}
	if ctx.Err() == nil {
		var cerr error
		res.Pending, cerr = e.pendingCount(ctx)
		if err == nil {
			err = cerr
		}
	}
	return res, err
}

// bindForSync makes the embedder the home's when nothing was ever embedded
// here and records wait: once it answers (bindEmbedder), so that sync
// finds them. A failure is tracked; last is the failure recorded after it.
func (e *Engine) bindForSync(ctx context.Context, last *EmbedderHealth) (*EmbedderHealth, error) {
	_, ok, err := e.store.HomeEmbedder(ctx)
	if err != nil || ok {
		return last, err
	}
	if n, err := e.pendingCount(ctx); err != nil || n == 0 {
		return last, err
	}
	if err = e.probeEmbedder(ctx); err == nil {
		return last, e.bindEmbedder(ctx) // its success is tracked at the end of the sync
	}
	h, terr := e.track(ctx, last, err)
	return h, cmp.Or(err, terr)
}

// embedUnembedded embeds the records without a vector in rounds of
// 4·EmbedBatch, after cursor, then (when cursor is not "") wraps around to
// those before it, counting them in *done. save keeps the cursor in the
// store after each round, and clears it at the end.
func (e *Engine) embedUnembedded(ctx context.Context, task, cursor string, save bool, done *int) error {
	kept := 0 // cached and not yet saved as vectors
	wrap := cursor != ""
	for {
		if err := ctx.Err(); err != nil {
			return stopped(ctx, err, kept, *done)
		}
		recs, next, err := e.store.Unembedded(ctx, cursor, 4*EmbedBatch)
		if err != nil {
			return stopped(ctx, err, kept, *done)
		}
		if len(recs) == 0 && wrap {
			wrap, cursor = false, ""
			continue
		}
		if len(recs) == 0 {
			break
		}
		if err := e.embedRecords(ctx, recs, &kept, false); err != nil {
			return stopped(ctx, err, kept, *done)
		}
		if err := e.store.PutVectors(ctx, recs); err != nil {
			return stopped(ctx, err, kept, *done)
		}
		*done += len(recs)
		kept, cursor = 0, next
		if save {
			if err := e.setNote(ctx, cursorNote, cursor); err != nil {
				return stopped(ctx, err, 0, *done)
			}
		}
		e.progress(task, *done, 0)
	}
	if save {
		return e.setNote(ctx, cursorNote, "")
	}
	return nil
}

// pendingCount counts the records waiting for a vector (0 for a store that
// cannot count them).
func (e *Engine) pendingCount(ctx context.Context) (int, error) {
	ps, ok := e.store.(PendingStore)
	if !ok {
		return 0, nil
	}
	byProject, err := ps.Pending(ctx)
	n := 0
	for _, c := range byProject {
		n += c
	}
	return n, err
}

// KeepEmbedding runs EmbedPending until ctx ends, for servers: at once,
// whenever a write of this Engine leaves records pending, and every
// interval (for the writes of other processes); after the embedder
// failed, not before its backoff ends; after another error, after an
// interval that doubles up to an hour. report (may be nil) hears every run
// that embedded something or failed, and when it started (for the job
// ledger). Without an embedder it returns at
// once: nothing here could embed.
func (e *Engine) KeepEmbedding(ctx context.Context, every time.Duration, report func(started time.Time, res SyncResult, err error)) {
	if e.embedder == nil {
		return
	}
	id, errWait := e.embedder.Info().ID(), every
	for {
		if h, err := e.health(ctx); err == nil && h.skips(id, e.now()) {
			// Checked again every interval: another process may have seen
			// the embedder answer.
			if !pause(ctx, min(h.RetryAt.Sub(e.now()), every), nil) {
				return
			}
			continue
		}
		started := e.Now()
		res, err := e.EmbedPending(ctx)
		if ctx.Err() != nil {
			return
		}
		if report != nil && (err != nil || res.Embedded > 0) {
			report(started, res, err)
		}
		wait := every
		switch {
		case err == nil:
			errWait = every
		case unavailable(ctx, err):
			wait = 0 // its backoff is waited above
		default:
			wait, errWait = errWait, min(2*errWait, time.Hour)
		}
		if !pause(ctx, wait, e.pending) {
			return
		}
	}
}

// pause waits d, or until wake (nil: never) or ctx ends; false when ctx
// ended.
func pause(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-wake:
	}
	return true
}

// SyncCursor is where the next EmbedPending resumes: the cursor a run cut
// short left ("" when the last one ended, or none ran).
func (e *Engine) SyncCursor(ctx context.Context) (string, error) { return e.note(ctx, cursorNote) }
