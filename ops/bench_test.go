package ops_test

import (
	"context"
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/ops"
	"github.com/mneme-ai/mneme/sqlite"
)

// batch is a session's first 100 rows: the session and 99 tool calls.
func batch(session string, n int, at time.Time) ops.Batch {
	b := ops.Batch{Entries: []ops.Entry{{Kind: ops.KindSession, Session: session, Host: "claude-code", Started: &at}}}
	ok := true
	for i := range n - 1 {
		t := at.Add(time.Duration(i+1) * time.Second)
		b.Entries = append(b.Entries, ops.Entry{Kind: ops.KindToolCall, Session: session, At: &t, Tool: "Bash",
			Input: fmt.Sprintf("go test -run TestCase%d ./pkg/...", i), Outcome: "ok: 12 tests passed", DurationMS: 840, Success: &ok})
	}
	return b
}

// BenchmarkWrite100 writes batches of 100 rows into a SQLite home (budget:
// 20 ms a batch), without an embedder and with the hash embedder: medians
// of wall time and of the process's CPU time.
func BenchmarkWrite100(b *testing.B) {
	for _, name := range []string{"no-embedder", "hash-embedder"} {
		b.Run(name, func(b *testing.B) {
			s, err := sqlite.Open(context.Background(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			var opts []mneme.Option
			if name == "hash-embedder" {
				em, _ := hash.New(256)
				opts = append(opts, mneme.WithEmbedder(em))
			}
			eng := mneme.NewEngine(s, opts...)
			defer eng.Close()
			at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
			var wall, cpu []float64
			i := 0
			for b.Loop() {
				i++
				bt := batch(fmt.Sprint("s", i), 100, at)
				t0, c0 := time.Now(), eval.CPUTime()
				if _, err := ops.Write(context.Background(), eng, bt); err != nil {
					b.Fatal(err)
				}
				wall = append(wall, float64(time.Since(t0).Microseconds())/1000)
				cpu = append(cpu, float64((eval.CPUTime()-c0).Microseconds())/1000)
			}
			b.ReportMetric(eval.Median(wall), "median-ms")
			b.ReportMetric(eval.Median(cpu), "cpu-ms")
		})
	}
}

// BenchmarkRead10k reads a session's timeline of 10,000 rows from a
// SQLite home (budget: 50 ms): "timeline" is ops.Read; "records" is the
// baseline, the read before it (every whole record through List, its meta
// decoded), interleaved with it so the ratio holds on a noisy machine.
// Medians of wall time (-ms) and of the process's CPU time (-cpu-ms).
func BenchmarkRead10k(b *testing.B) {
	eng := open(b)
	at := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for i := range 10 {
		bt := batch("s1", 1000, at.Add(time.Duration(i)*time.Hour))
		if i > 0 {
			bt.Entries = bt.Entries[1:] // the session exists
			for j := range bt.Entries {
				bt.Entries[j].Input += fmt.Sprint(" #", i)
			}
		}
		if _, err := ops.Write(context.Background(), eng, bt); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	reads := []struct {
		name string
		read func() (int, error)
	}{
		{"timeline", func() (int, error) {
			page, err := ops.Read(ctx, eng, ops.Query{Session: "s1"})
			return len(page.Entries), err
		}},
		{"records", func() (int, error) { return ops.ReadRecords(ctx, eng, ops.Query{Session: "s1"}) }},
	}
	wall, cpu := make([][]float64, len(reads)), make([][]float64, len(reads))
	for b.Loop() { // interleaved: both reads see the same load
		for i, r := range reads {
			t0, c0 := time.Now(), eval.CPUTime()
			n, err := r.read()
			if err != nil || n < 9990 {
				b.Fatalf("%s: %d entries, %v", r.name, n, err)
			}
			wall[i] = append(wall[i], float64(time.Since(t0).Microseconds())/1000)
			cpu[i] = append(cpu[i], float64((eval.CPUTime()-c0).Microseconds())/1000)
		}
	}
	for i, r := range reads {
		b.ReportMetric(eval.Median(wall[i]), r.name+"-ms")
		b.ReportMetric(eval.Median(cpu[i]), r.name+"-cpu-ms")
	}
	b.ReportMetric(eval.Median(wall[0])/eval.Median(wall[1]), "ratio")
}
