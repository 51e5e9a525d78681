package codemem

import (
	"context"
	"testing"
	"time"
)

// TestWatch: with native events and with polling, an edit is emitted as
// one delta after the initial envelope.
func TestWatch(t *testing.T) {
	for _, poll := range []bool{false, true} {
		root := repo(t, map[string]string{"a.go": "package a\n", "sub/b.py": "import os\n"})
		s := New(Options{CacheDir: t.TempDir()})
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan *Envelope, 10)
		done := make(chan error, 1)
		go func() {
			done <- s.Watch(ctx, Request{ProjectRoot: root}, WatchOptions{Interval: 100 * time.Millisecond, Debounce: 20 * time.Millisecond, Poll: poll},
				func(env *Envelope, native bool) error {
					if native == poll {
						t.Errorf("poll %v: native %v", poll, native)
					}
					got <- env
					return nil
				})
		}()
		first := <-got
		if first.CacheStatus != Miss || first.Stats.FileCount != 2 {
			t.Fatalf("first envelope %+v", first)
		}
		write(t, root, "sub/b.py", "import os, sys\n")
		select {
		case env := <-got:
			if env.Delta.Modified != 1 || env.Delta.Files[0].Path != "sub/b.py" {
				t.Fatalf("poll %v: delta %+v", poll, env.Delta)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("poll %v: no delta after an edit", poll)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
