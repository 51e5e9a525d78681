package codemem

import (
	"os"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// BenchmarkExploreHit explores $MNEME_CODE_BENCH_REPO (scripts/fetch-code-bench
// fetches two) on a cache hit; skipped without it.
func BenchmarkExploreHit(b *testing.B) {
	root := os.Getenv("MNEME_CODE_BENCH_REPO")
	if root == "" {
		skips.Skip(b, "MNEME_CODE_BENCH_REPO=DIR (scripts/fetch-code-bench)", "no repository to index")
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
