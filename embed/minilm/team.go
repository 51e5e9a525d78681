package minilm

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team holds the other cores through one small forward pass (a query):
// helpers that spin on an atomic for the next job between products. A
// query's products take tens of microseconds each, and waking an idle vCPU
// for every one (a new goroutine, as spread does) costs about 100 µs, so
// without a team the second core barely helps a query. A helper spins at
// most teamIdle after its last task, then parks until a job is posted, and
// every helper exits when the pass ends (stop): no core burns while idle.
type team struct {
	helpers int
	job     atomic.Pointer[teamJob]
	parked  atomic.Int32 // helpers parked on wake
	quit    atomic.Bool
	wake    chan struct{}
}

// teamIdle bounds a helper's spinning after its last task; teamWait
// bounds the caller's spinning for the helpers' last tasks of a job before
// it blocks.
const (
	teamIdle = 50 * time.Microsecond
	teamWait = 50 * time.Microsecond // a share of a query's product takes about 20 µs
)

// teamJob is one call of do: indices [0, n) handed out dynamically.
type teamJob struct {
	fn         func(worker, i int)
	n          int64
	next, done atomic.Int64
	finished   chan struct{} // closed by whoever finishes the last index
}

// teamHeld: one team at a time in the process. Passes running side by side
// (a server's concurrent queries) already keep the cores busy, and their
// helpers would only take turns with the callers.
var teamHeld atomic.Bool

// startTeam starts helpers goroutines (worker ids 1…helpers; the caller
// of do is worker 0), or returns nil when another pass holds the team.
func startTeam(helpers int) *team {
	if !teamHeld.CompareAndSwap(false, true) {
		return nil
	}
	t := &team{helpers: helpers, wake: make(chan struct{}, helpers)}
	for w := 1; w <= helpers; w++ {
		go t.help(w)
	}
	return t
}

// stop ends the helpers; it does not wait for them (none is inside a job:
// every do returned).
func (t *team) stop() {
	t.quit.Store(true)
	t.wakeParked()
	teamHeld.Store(false)
}

// wakeParked wakes every parked helper (a token each, never blocking).
func (t *team) wakeParked() {
	for range t.parked.Load() {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

// do calls fn(worker, i) for every i in [0, n) on the caller and the
// helpers and returns when every call is done.
func (t *team) do(n int, fn func(worker, i int)) {
	j := &teamJob{fn: fn, n: int64(n), finished: make(chan struct{})}
	t.job.Store(j)
	t.wakeParked()
	j.run(0)
	if j.done.Load() == j.n {
		return
	}
	// A helper is finishing its last index: it is running, so spin a little
	// rather than park (parking and being woken again costs ~100 µs).
	for start := time.Now(); time.Since(start) < teamWait; {
		for range 64 {
			if j.done.Load() == j.n {
				return
			}
		}
	}
	<-j.finished
}

func (j *teamJob) run(worker int) {
	for {
		i := j.next.Add(1) - 1
		if i >= j.n {
			return
		}
		j.fn(worker, int(i))
		if j.done.Add(1) == j.n {
			close(j.finished)
		}
	}
}

// help is helper w's loop: run each new job, spin for the next one at most
// teamIdle, then park.
func (t *team) help(w int) {
	var last *teamJob
	idle := time.Now()
	for spins := 0; !t.quit.Load(); spins++ {
		if j := t.job.Load(); j != nil && j != last {
			last = j
			j.run(w)
			idle, spins = time.Now(), 0
			continue
		}
		if spins&63 != 63 {
			continue
		}
		if time.Since(idle) < teamIdle {
			runtime.Gosched() // let anything else runnable here go first
			continue
		}
		// Announce the park, then look again: a job posted before the
		// announcement is seen here, one posted after it sends a token.
		t.parked.Add(1)
		if j := t.job.Load(); (j == nil || j == last) && !t.quit.Load() {
			<-t.wake
		}
		t.parked.Add(-1)
		idle = time.Now()
	}
}
