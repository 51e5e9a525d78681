package vault_test

import (
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
	"github.com/mneme-ai/mneme/vault"
)

// Budgets (issue 26): export of 10,000 records ≤ 3 s, re-export with 10
// changed ≤ 300 ms, import of 10,000 files with no embedder ≤ 5 s.
const benchRecords = 10000

// plainEngine is a home with no embedder: the import budget is for
// --embedder none.
func plainEngine(b *testing.B) *mneme.Engine {
	s, err := sqlite.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return mneme.NewEngine(s, mneme.WithClock(func() time.Time { return now }))
}

func benchSeed(b *testing.B, eng *mneme.Engine) []*mneme.Record {
	recs := make([]*mneme.Record, benchRecords)
	kinds := []string{"note", "decision", "learning", "finding"}
	for i := range recs {
		recs[i] = &mneme.Record{ID: mneme.NewID(now), Project: fmt.Sprintf("p%d", i%3), Kind: kinds[i%4],
			Title: fmt.Sprintf("Memory number %d", i), Tags: []string{"bench", kinds[i%4]},
			Text: fmt.Sprintf("Memory %d: the service on host-%d restarts nightly; the runbook says check the queue depth first.", i, i%97)}
	}
	for i := 0; i < len(recs); i += 1000 {
		if _, err := eng.Import(ctx, recs[i:i+1000], mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	return recs
}

func BenchmarkVaultExport10k(b *testing.B) {
	eng := plainEngine(b)
	benchSeed(b, eng)
	b.ResetTimer()
	for range b.N {
		dir := filepath.Join(b.TempDir(), "v")
		if _, err := vault.Export(ctx, eng, dir, mneme.Filter{Clearance: mneme.Secret}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

func BenchmarkVaultReexport10Changed(b *testing.B) {
	eng := plainEngine(b)
	recs := benchSeed(b, eng)
	dir := b.TempDir()
	if _, err := vault.Export(ctx, eng, dir, mneme.Filter{Clearance: mneme.Secret}); err != nil {
		b.Fatal(err)
	}
	var wall, cpu []float64
	b.ResetTimer()
	for n := range b.N {
		b.StopTimer()
		for i := range 10 {
			text := fmt.Sprintf("Changed %d in round %d.", i, n)
			if _, err := eng.Patch(ctx, recs[i*997].ID, mneme.Patch{Text: &text}, mneme.Secret); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		t0, c0 := time.Now(), eval.CPUTime()
		res, err := vault.Export(ctx, eng, dir, mneme.Filter{Clearance: mneme.Secret})
		wall, cpu = append(wall, ms(time.Since(t0))), append(cpu, ms(eval.CPUTime()-c0))
		if err != nil || res.Written != 10 {
			b.Fatalf("re-export = %+v, %v", res, err)
		}
	}
	// Medians: the machine is shared, and CPU time is what load inflates least.
	b.ReportMetric(eval.Median(wall), "p50-ms")
	b.ReportMetric(eval.Median(cpu), "cpu-p50-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func BenchmarkVaultImport10k(b *testing.B) {
	src := plainEngine(b)
	benchSeed(b, src)
	dir := b.TempDir()
	if _, err := vault.Export(ctx, src, dir, mneme.Filter{Clearance: mneme.Secret}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		eng := plainEngine(b)
		b.StartTimer()
		res, err := vault.Import(ctx, eng, dir, vault.ImportOptions{})
		if err != nil || res.Inserted != benchRecords {
			b.Fatalf("import = %+v, %v", res, err)
		}
	}
}
