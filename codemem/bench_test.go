package codemem

import (
	"os"
	"testing"
)

// BenchmarkExploreHit explores $MNEME_CODE_BENCH_REPO (scripts/fetch-code-bench
// fetches two) on a cache hit; skipped without it.
func BenchmarkExploreHit(b *testing.B) {
	root := os.Getenv("MNEME_CODE_BENCH_REPO")
	if root == "" {
		b.Skip("set MNEME_CODE_BENCH_REPO to a repository (scripts/fetch-code-bench)")
	}
	s := New(Options{CacheDir: b.TempDir()})
	if _, err := s.Run(CmdExplore, Request{ProjectRoot: root}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Run(CmdExplore, Request{ProjectRoot: root}); err != nil {
			b.Fatal(err)
		}
	}
}
