package consolidate_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/sqlite"
)

// BenchmarkSummarize500 summarizes a window of 500 episodic records
// (conversation turns in 10 sessions, embedded by the built-in model as
// they were stored) extractively at 250 words. Each iteration writes a new
// summary (max_words alternates, so the stored one never answers): reading
// the window, the selection and the summary's own embedding by the model
// are all timed.
//
//	go test ./consolidate -run '^$' -bench Summarize500 -benchtime 10x
func BenchmarkSummarize500(b *testing.B) {
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		skips.Skip(b, "mneme model fetch", "the built-in model is not installed: "+mneme.ErrorMessage(err))
	}
	s, err := sqlite.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	ctx := context.Background()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	recs := make([]*mneme.Record, 500)
	for i := range recs {
		at := start.Add(time.Duration(i/50)*24*time.Hour + time.Duration(i%50)*time.Minute)
		speaker := []string{"Ann", "Bob"}[i%2]
		recs[i] = &mneme.Record{Project: "bench", Type: mneme.Episodic, Kind: "turn", Speaker: speaker,
			SessionID: fmt.Sprintf("s%d", i/50), OccurredAt: &at, Text: speaker + ": " + turn(i)}
	}
	if _, err := eng.Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	req := consolidate.Request{Project: "bench", Since: "2026-03-01", Until: "2026-03-12", Limit: 500}
	i := 0
	for b.Loop() {
		req.MaxWords = consolidate.MaxWords(250 + i%2)
		i++
		res, err := consolidate.Summarize(ctx, eng, req)
		if err != nil || !res.Created || len(res.SourceIDs) != 500 {
			b.Fatalf("iteration %d: created %v, %d sources, %v", i, res != nil && res.Created, len(res.SourceIDs), err)
		}
	}
}

// turn is the i-th synthetic conversation turn: varied topics, people,
// places and numbers, a few sentences long.
func turn(i int) string {
	people := []string{"my sister", "Carla", "the new manager", "our neighbour", "my old coach", "the kids"}
	acts := []string{"started a pottery class", "moved the release to Friday", "adopted a guinea pig named Oscar", "ran a half marathon",
		"fixed the flaky checkout test", "booked a trip to Lisbon", "switched the database to Postgres 17", "painted the kitchen blue"}
	why := []string{"because the old plan kept slipping", "to finally relax a bit", "after months of talking about it",
		"since the budget was approved", "which surprised everyone"}
	s := fmt.Sprintf("On call %d we heard that %s %s %s.", i+1, people[i%len(people)], acts[(i/3)%len(acts)], why[(i/7)%len(why)])
	if i%3 == 0 {
		s += fmt.Sprintf(" It took %d days and cost about %d euros.", 2+i%9, 40+i%17*10)
	}
	if i%4 == 1 {
		s += " How was your week?"
	}
	return s
}
