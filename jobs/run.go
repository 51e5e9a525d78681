package jobs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mneme-ai/mneme"
)

type callerKey struct{}

// WithCaller names the caller entries started with ctx record, instead of
// its scope's name: a server's background work says so.
func WithCaller(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, callerKey{}, name)
}

func callerOf(ctx context.Context) string {
	if name, ok := ctx.Value(callerKey{}).(string); ok {
		return name
	}
	return mneme.ScopeFrom(ctx).Name
}

// Run is a run being recorded. A nil Run records nothing (the store keeps
// no ledger): its methods may still be called.
type Run struct {
	led  Ledger
	eng  *mneme.Engine
	mu   sync.Mutex
	e    Entry
	stop chan struct{}
	done chan struct{}
}

// Start records the start of a run of kind in project ("" for the whole
// store), once the caller may run it: a write to that project, or to every
// project for a store-wide job. So a caller that may not run a job cannot
// fill the ledger (and push out its real entries) with refusals. While
// the run works its lease is renewed; Finish records its end.
func Start(ctx context.Context, eng *mneme.Engine, kind Kind, project string) (*Run, error) {
	if err := mayRun(ctx, kind, project); err != nil {
		return nil, err
	}
	led, ok := eng.Store().(Ledger)
	if !ok {
		return nil, nil
	}
	now := eng.Now()
	r := &Run{led: led, eng: eng, stop: make(chan struct{}), done: make(chan struct{}), e: Entry{
		ID: mneme.NewID(now), Kind: kind, Project: project, Caller: mneme.Clip(callerOf(ctx)), Status: Running,
		StartedAt: now, Counts: map[string]int{}, AliveUntil: now.Add(lease), Owner: self()}}
	if err := led.PutJob(ctx, r.e, Keep); err != nil {
		return nil, err
	}
	go r.renew(context.WithoutCancel(ctx))
	return r, nil
}

// mayRun refuses a run the caller's scope does not allow.
func mayRun(ctx context.Context, kind Kind, project string) error {
	sc := mneme.ScopeFrom(ctx)
	switch {
	case !sc.Write:
		return mneme.Errorf(mneme.EFORBIDDEN, "token %q is read-only and %s writes: use a token with access write", sc.Name, kind)
	case project == "" && len(sc.Projects) > 0:
		return mneme.Errorf(mneme.EFORBIDDEN, "token %q covers only some projects and %s touches all of them", sc.Name, kind)
	case !sc.Covers(project):
		return mneme.Errorf(mneme.EFORBIDDEN, "token %q does not cover project %q", sc.Name, mneme.Clip(project))
	}
	return nil
}

// renew extends the lease every lease/3 until Finish.
func (r *Run) renew(ctx context.Context) {
	defer close(r.done)
	t := time.NewTicker(lease / 3)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.mu.Lock()
			r.e.AliveUntil = r.eng.Now().Add(lease)
			e := r.e
			r.mu.Unlock()
			r.led.PutJob(ctx, e, Keep) // a missed renewal is made up by the next
		}
	}
}

// Progress notes counts and cursor so far: the next renewal records them,
// so a killed run's entry says where it stopped.
func (r *Run) Progress(counts map[string]int, cursor string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.e.Counts, r.e.Cursor = counts, clean(cursor)
}

// Finish records the end of the run: done, failed with err, or
// interrupted when err is a cancellation. It writes even when ctx is
// cancelled (that is when an interruption is recorded).
func (r *Run) Finish(ctx context.Context, counts map[string]int, cursor string, err error) error {
	if r == nil {
		return nil
	}
	close(r.stop)
	<-r.done
	now := r.eng.Now()
	r.mu.Lock()
	e := r.e
	r.mu.Unlock()
	e.EndedAt, e.Status = &now, Done
	if counts != nil {
		e.Counts = counts
	}
	e.Cursor = clean(cursor)
	if err != nil {
		e.Status, e.Error = Failed, clean(message(err))
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			e.Status = Interrupted
		}
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return r.led.PutJob(wctx, e, Keep)
}

func message(err error) string {
	if code := mneme.ErrorCode(err); code != "" && code != mneme.EINTERNAL {
		return code + ": " + mneme.ErrorMessage(err)
	}
	return mneme.ErrorMessage(err)
}

// Track runs fn as a run of kind in project, recording its start and its
// end with the counts and cursor report finds in its result. A ledger
// that cannot record the end fails a run that did not fail otherwise.
func Track[T any](ctx context.Context, eng *mneme.Engine, kind Kind, project string, fn func(context.Context) (T, error), report func(T) (map[string]int, string)) (T, error) {
	run, err := Start(ctx, eng, kind, project)
	if err != nil {
		var zero T
		return zero, err
	}
	res, err := fn(ctx)
	counts, cursor := report(res)
	if ferr := run.Finish(ctx, counts, cursor, err); err == nil {
		err = ferr
	}
	return res, err
}

// Log records a run that has ended: the background sync, which records
// only the runs that did something or failed (it looks every minute).
func Log(ctx context.Context, eng *mneme.Engine, kind Kind, started time.Time, counts map[string]int, err error) error {
	led, ok := eng.Store().(Ledger)
	if !ok {
		return nil
	}
	now := eng.Now()
	e := Entry{ID: mneme.NewID(started), Kind: kind, Caller: mneme.Clip(callerOf(ctx)), Status: Done, StartedAt: started, EndedAt: &now,
		Counts: counts, AliveUntil: now, Owner: self()}
	if err != nil {
		e.Status, e.Error = Failed, clean(message(err))
	}
	return led.PutJob(context.WithoutCancel(ctx), e, Keep)
}

// self names this process: host and pid.
func self() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d", host, os.Getpid())
}
