package mneme

import (
	"context"
	"time"

	"github.com/mneme-ai/mneme/rank"
)

// pool reports whether fusion or reshaping choose among more candidates
// than k: each lane's pool (rank.UsualPool), and the window search.
func (q *Query) pool() bool { return q.Mode == Hybrid || q.Rerank || q.MMR > 0 || q.MinScore > 0 }

// search runs cq and, for a question that names a time, a second search
// restricted to that time (rank.Profile.Window) under the same filter,
// whose candidates join the first's before fusion and the boosts. The
// turn that answers "what did Nate do on 25 May, 2022?" shares few words
// and little meaning with it: both lanes rank it far down over a whole
// home, but near the top among that day's records. The stores filter by
// time before they rank (the path of recall's since and until), so the
// second search costs what a recall under a narrow filter does, and it
// runs beside the first (a store answers concurrent searches).
func (e *Engine) search(ctx context.Context, q *Query, cq CandidateQuery) (Candidates, error) {
	wq, ok := e.windowQuery(q, cq)
	if !ok {
		return e.store.Candidates(ctx, cq)
	}
	var more Candidates
	var merr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		more, merr = e.store.Candidates(ctx, wq)
	}()
	found, err := e.store.Candidates(ctx, cq)
	<-done
	if err == nil {
		err = merr
	}
	if err != nil {
		return found, err
	}
	joinWindow(&found, more)
	return found, nil
}

// windowQuery is cq restricted to the time q names, if it names one and
// fusion chooses among more than k.
func (e *Engine) windowQuery(q *Query, cq CandidateQuery) (CandidateQuery, bool) {
	w, ok := q.prof.Window(q.Text, e.now())
	if !ok || !q.pool() {
		return cq, false
	}
	wq := cq
	wq.K = q.prof.WindowPool
	wq.Filter, ok = within(cq.Filter, w)
	return wq, ok
}

// within is f narrowed to the span w (f's bounds are inclusive, w's end
// is not); ok is false when nothing can pass both.
func within(f Filter, w rank.Span) (Filter, bool) {
	since, until := w.From, w.To.Add(-time.Nanosecond)
	if f.Since != nil && f.Since.After(since) {
		since = *f.Since
	}
	if f.Until != nil && f.Until.Before(until) {
		until = *f.Until
	}
	f.Since, f.Until = clampTime(&since), clampTime(&until)
	return f, !f.Since.After(*f.Until)
}

// joinWindow adds to found the window search's candidates it lacks. Their
// lanes' ranks are within the window, not the home, so they join with
// none: a candidate of the window alone (Candidate.window).
func joinWindow(found *Candidates, more Candidates) {
	have := make(map[string]bool, len(found.List))
	for _, c := range found.List {
		have[c.Record.ID] = true
	}
	for _, c := range more.List {
		if !have[c.Record.ID] {
			c.LexicalRank, c.VectorRank, c.window = 0, 0, true
			found.List = append(found.List, c)
		}
	}
	if found.Linked != nil && more.Linked != nil {
		found.Linked = append(found.Linked, more.Linked...)
	}
}
