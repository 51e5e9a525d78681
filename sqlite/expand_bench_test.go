package sqlite_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkExpandLinks measures what --expand 2 adds to a lexical recall
// at 100,000 records with typed links, against no expansion in the same
// run (see benchdata.BenchExpand). Run with -benchtime=1000x.
func BenchmarkExpandLinks(b *testing.B) {
	const n = 100_000
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	eng := mneme.NewEngine(s)
	benchdata.ImportLinked(b, eng, n)
	benchdata.BenchExpand(b, eng, n)
}
