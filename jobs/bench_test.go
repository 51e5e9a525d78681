package jobs_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/jobs"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkTrack is what the ledger adds to one run of a job: the entry
// written at the start and again at the end (a real SQLite file; each
// write its own transaction, as PutJob does), against a run that does
// nothing. The baseline is Track without a ledger (a store that keeps
// none costs nothing).
func BenchmarkTrack(b *testing.B) {
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	eng := mneme.NewEngine(s)
	ctx := context.Background()
	noop := func(context.Context) (int, error) { return 0, nil }
	counts := func(int) (map[string]int, string) { return map[string]int{"files": 1}, "" }
	b.Run("ledger", func(b *testing.B) {
		for b.Loop() {
			if _, err := jobs.Track(ctx, eng, jobs.KindIngest, "p", noop, counts); err != nil {
				b.Fatal(err)
			}
		}
	})
	bare := mneme.NewEngine(struct{ mneme.Store }{s}) // the same store, its ledger hidden
	b.Run("none", func(b *testing.B) {
		for b.Loop() {
			if _, err := jobs.Track(ctx, bare, jobs.KindIngest, "p", noop, counts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("list50", func(b *testing.B) {
		for b.Loop() {
			if _, err := jobs.List(ctx, eng, jobs.Query{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestClean: messages and cursors keep no absolute path; URLs stay.
func TestClean(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"open /home/alice/repo/a.md: denied", "open …/a.md: denied"},
		{`path="/srv/data/x y.md"`, `path="…/x y.md"`},
		{"cannot reach http://127.0.0.1:9/api/embed", "cannot reach http://127.0.0.1:9/api/embed"},
		{"/etc/passwd", "…/passwd"},
		{"ratio 3/4 kept", "ratio 3/4 kept"},
		{"docs/guide.md", "docs/guide.md"},
	} {
		if got := jobs.Clean(c.in); got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}
