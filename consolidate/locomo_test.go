package consolidate

import (
	"fmt"
	"os"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/skips"
)

// TestLoCoMoCoverage measures the extractive selection on LoCoMo dev
// without a store (each session's turns as records, no embedding): the
// evidence turns whose content words the session's summary keeps, at
// least half and all, against the lead baseline (its first words), in
// each conversation: at 250 words the summary keeps more in each. The figures in docs/performance.md come from the full benchmark,
// mneme bench locomo --summaries; this is the quick loop to tune with:
//
//	MNEME_LOCOMO=$PWD/../shared/bench/locomo-dev.json go test ./consolidate -run LoCoMo -v
func TestLoCoMoCoverage(t *testing.T) {
	path := os.Getenv("MNEME_LOCOMO")
	if path == "" {
		skips.Skip(t, "MNEME_LOCOMO=path/to/locomo-dev.json (in ../shared/bench)", "no LoCoMo dev data")
	}
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, words := range []int{120, 250, 500} {
		var total [4]int // half, all: summary, then lead
		n := 0
		for _, c := range convs {
			got := coverageOf(c, words)
			t.Logf("%d words, %s: evidence %d, at least half kept %s, all kept %s", words, c.ID, got[4], pct(got[0], got[2], got[4]), pct(got[1], got[3], got[4]))
			if words == 250 && (got[0] <= got[2] || got[1] <= got[3]) {
				t.Errorf("%d words, %s: the summary keeps no more evidence than the lead: %v", words, c.ID, got)
			}
			for i := range total {
				total[i] += got[i]
			}
			n += got[4]
		}
		t.Logf("%d words, all: evidence %d, at least half kept %s, all kept %s", words, n, pct(total[0], total[2], n), pct(total[1], total[3], n))
	}
}

// coverageOf counts c's evidence turns that each session's summary keeps
// at least half and all of, then the same for the lead, then the count.
func coverageOf(c eval.Conversation, words int) [5]int {
	var out [5]int
	kept := map[int][2]map[string]bool{} // by session: summary, lead
	for _, s := range eval.Sessions(c) {
		srcs := make([]*mneme.Record, len(s))
		for i, t := range s {
			srcs[i] = &mneme.Record{ID: t.DiaID, Text: t.Text, Speaker: t.Speaker, OccurredAt: &t.Date}
		}
		text, _ := extract(sentences(srcs), srcs, words)
		kept[s[0].Session] = [2]map[string]bool{eval.WordSet(text), eval.WordSet(eval.Lead(s, words))}
	}
	for _, t := range eval.EvidenceTurns(c) {
		for j, set := range kept[t.Session] {
			half, all := eval.Kept(t, set)
			out[2*j] += b2i(half)
			out[2*j+1] += b2i(all)
		}
		out[4]++
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pct(summary, lead, n int) string {
	return fmt.Sprintf("%.1f %% (lead %.1f %%)", 100*float64(summary)/float64(n), 100*float64(lead)/float64(n))
}
