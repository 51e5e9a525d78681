package mneme_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
)

// switchable is an embedder that hangs (until its caller gives up) or
// fails as an unreachable provider does, as its mode says, else embeds.
type switchable struct {
	mneme.Embedder
	mode  atomic.Value // "", "hang", "down" or "down once"
	calls atomic.Int64
}

func newSwitchable(mode string) *switchable {
	base, _ := hash.New(16)
	s := &switchable{Embedder: base}
	s.mode.Store(mode)
	return s
}

func (s *switchable) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	s.calls.Add(1)
	switch s.mode.Load() {
	case "hang":
		<-ctx.Done()
		return nil, mneme.Errorf(mneme.EUNAVAILABLE, "cannot reach the provider: %v", ctx.Err())
	case "down once":
		s.mode.Store("")
		fallthrough
	case "down":
		return nil, mneme.Errorf(mneme.EUNAVAILABLE, "cannot reach the provider: connection refused")
	}
	return s.Embedder.Embed(ctx, texts)
}

// clock is a test clock safe to read from the embedding job's goroutine;
// step is added at every reading.
type clock struct {
	mu   sync.Mutex
	at   time.Time
	step time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(c.step)
	return c.at
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// TestWriteDoesNotWaitOnASlowEmbedder: a write gives up on an embedder
// slower than its wait and stores the record pending; the next write does
// not call it until its backoff ends.
func TestWriteDoesNotWaitOnASlowEmbedder(t *testing.T) {
	em := newSwitchable("hang")
	eng := reopen(engine(t).Store(), mneme.WithEmbedder(em), mneme.WithEmbedWait(20*time.Millisecond))
	t0 := time.Now()
	res, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "written while the provider hangs"}}, mneme.WriteOptions{})
	if took := time.Since(t0); err != nil || res.PendingEmbeddings != 1 || !strings.Contains(res.PendingReason, "did not answer within 21ms") || took > time.Second {
		t.Fatalf("remember (%v): %+v, %v", took, res, err)
	}
	t0 = time.Now()
	res, err = eng.Remember(context.Background(), []*mneme.Record{{Text: "written after it was marked down"}}, mneme.WriteOptions{})
	if took := time.Since(t0); err != nil || res.PendingEmbeddings != 1 || em.calls.Load() != 1 || took > 100*time.Millisecond {
		t.Fatalf("second remember (%v, %d calls): %+v, %v", took, em.calls.Load(), res, err)
	}
}

// TestKeepEmbedding: the background job leaves a provider alone until its
// backoff ends, then embeds what waits; a write that leaves records pending
// wakes it at once.
func TestKeepEmbedding(t *testing.T) {
	em := newSwitchable("down")
	c := &clock{at: now}
	eng := mneme.NewEngine(engine(t).Store(), mneme.WithClock(c.now), mneme.WithEmbedder(em))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if res, err := eng.Remember(ctx, []*mneme.Record{{Text: "written while the provider is down"}}, mneme.WriteOptions{}); err != nil || res.PendingEmbeddings != 1 {
		t.Fatalf("remember: %+v, %v", res, err)
	}
	runs := make(chan mneme.SyncResult, 10)
	run := func(every time.Duration) (stop func()) {
		ctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			eng.KeepEmbedding(ctx, every, func(_ time.Time, res mneme.SyncResult, err error) {
				if err != nil {
					t.Errorf("job: %v", err)
				}
				runs <- res
			})
		}()
		return func() { cancel(); <-done }
	}
	stop := run(10 * time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	if n := em.calls.Load(); n != 1 {
		t.Fatalf("the job called the provider %d times during its backoff", n-1)
	}
	em.mode.Store("")
	c.add(time.Minute)
	select {
	case res := <-runs:
		if res.Embedded != 1 || res.Pending != 0 {
			t.Fatalf("job run: %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the job did not embed the pending record after the backoff")
	}
	stop()
	c.mu.Lock()
	c.step = 10 * time.Second // every backoff has ended by the next reading
	c.mu.Unlock()
	defer run(time.Hour)()
	time.Sleep(200 * time.Millisecond) // its first run finds nothing: the next is woken by the write
	em.mode.Store("down once")
	if res, err := eng.Remember(ctx, []*mneme.Record{{Text: "written while it failed once"}}, mneme.WriteOptions{}); err != nil || res.PendingEmbeddings != 1 {
		t.Fatalf("remember: %+v, %v", res, err)
	}
	select {
	case res := <-runs:
		if res.Embedded != 1 {
			t.Fatalf("job run: %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write did not wake the job")
	}
}
