package postgres_test

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
)

// BenchmarkExpandLinks is sqlite's BenchmarkExpandLinks in PostgreSQL:
// what --expand 2 adds to a lexical recall at 100,000 records with typed
// links, against no expansion in the same run. Run with -benchtime=1000x.
func BenchmarkExpandLinks(b *testing.B) {
	const n = 100_000
	s := pgtest.Open(b)
	b.Cleanup(func() { s.Close() })
	eng := mneme.NewEngine(s)
	benchdata.ImportLinked(b, eng, n)
	if _, err := s.Pool().Exec(context.Background(), "VACUUM ANALYZE"); err != nil { // a store at rest
		b.Fatal(err)
	}
	benchdata.BenchExpand(b, eng, n)
}
