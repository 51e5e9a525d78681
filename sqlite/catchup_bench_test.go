package sqlite_test

import (
	"context"
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkCatchUpAfterSession is a session start's lexical read after a
// captured session, as a new process does it: a home of 100,000 records
// whose word index snapshot is on disk, a few records written since by
// other processes (a prompt, a tool call, the session's end and summary),
// then open the store and recall by words. Medians of wall time and of the
// process's CPU time per open and recall.
func BenchmarkCatchUpAfterSession(b *testing.B) {
	ctx := context.Background()
	home := b.TempDir()
	s, err := sqlite.Open(ctx, home)
	if err != nil {
		b.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	c := benchdata.New(1, 30_000)
	for start := 0; start < 100_000; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < start+1000; i++ {
			batch = append(batch, c.Record(i))
		}
		if _, err := eng.Import(ctx, batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	eng.Close() // saves the snapshot
	var wall, cpu []float64
	i := 0
	for b.Loop() {
		i++
		session := fmt.Sprint("s", i)
		w := openEngine(b, home)
		at := time.Now()
		recs := []*mneme.Record{
			{Project: "p0", Type: mneme.Episodic, Kind: "turn", Speaker: "user", SessionID: session, OccurredAt: &at, Text: fmt.Sprintf("fix the flaky test %d", i)},
			{Project: "p0", Type: mneme.Episodic, Kind: "tool_call", SessionID: session, OccurredAt: &at, Text: fmt.Sprintf("Bash: go test ./pkg%d/ -> ok", i)},
			{Project: "p0", Type: mneme.Episodic, Kind: "session", Key: "ops:session:" + session, SessionID: session, OccurredAt: &at, Text: "Session " + session + ", ended: fixed a flaky test"},
		}
		if _, err := w.Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		w.Close()
		t0, c0 := time.Now(), eval.CPUTime()
		r := openEngine(b, home)
		res, err := r.Recall(ctx, mneme.Query{Text: "flaky test " + fmt.Sprint(i), K: 10, Mode: mneme.Lexical, Filter: mneme.Filter{Project: "p0"}})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(err, res)
		}
		r.Close()
		wall = append(wall, float64(time.Since(t0).Microseconds())/1000)
		cpu = append(cpu, float64((eval.CPUTime()-c0).Microseconds())/1000)
	}
	b.ReportMetric(eval.Median(wall), "median-ms")
	b.ReportMetric(eval.Median(cpu), "cpu-ms")
}

func openEngine(b *testing.B, home string) *mneme.Engine {
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		b.Fatal(err)
	}
	return mneme.NewEngine(s)
}
