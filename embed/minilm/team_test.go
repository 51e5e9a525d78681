package minilm

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestTeam: every index of every job runs exactly once, on worker ids the
// team owns (the caller is 0); the helpers do take work; after teamIdle
// without a job every helper parks (spins no more), a new job still
// completes; one team is held at a time; and stop ends the helpers.
func TestTeam(t *testing.T) {
	before := runtime.NumGoroutine()
	const helpers = 2
	tm := startTeam(helpers)
	if tm == nil {
		t.Fatal("no team")
	}
	if other := startTeam(1); other != nil {
		other.stop()
		t.Fatal("a second team while the first is held")
	}
	var byHelper atomic.Int64
	check := func(n int) {
		t.Helper()
		counts := make([]atomic.Int32, n)
		tm.do(n, func(w, i int) {
			if w < 0 || w > helpers {
				t.Errorf("worker %d", w)
			}
			if w > 0 {
				byHelper.Add(1)
			}
			counts[i].Add(1)
			time.Sleep(20 * time.Microsecond) // long enough for a helper to take some
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, c)
			}
		}
	}
	for _, n := range []int{1, 2, 7, 64, 0} {
		check(n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for tries := 0; byHelper.Load() == 0; tries++ {
		if time.Now().After(deadline) {
			t.Fatal("no helper ever took an index")
		}
		check(64)
	}
	for deadline := time.Now().Add(5 * time.Second); tm.parked.Load() != helpers; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d helpers parked %v after the last job", tm.parked.Load(), helpers, 5*time.Second)
		}
		time.Sleep(time.Millisecond)
	}
	check(16) // parked helpers are woken, or the caller does it all
	tm.stop()
	if again := startTeam(1); again == nil {
		t.Fatal("no team after the first stopped")
	} else {
		again.stop()
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after stop, %d before the team", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTeamQuery: a query's pass holds a team and lets it go; its vector is
// the one the pass without a team computes, bit for bit.
func TestTeamQuery(t *testing.T) {
	m := testModel(t)
	prev := runtime.GOMAXPROCS(1)
	one := m.Embed([]string{queryText})[0]
	runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	before := runtime.NumGoroutine()
	two := m.Embed([]string{queryText})[0]
	for j := range one {
		if one[j] != two[j] {
			t.Fatalf("dimension %d: %v on one core, %v with a team", j, one[j], two[j])
		}
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after the query, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}
