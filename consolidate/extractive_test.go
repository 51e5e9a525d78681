package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// TestSelection: what the extractive summary keeps when it cannot keep
// everything.
func TestSelection(t *testing.T) {
	day := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		turns    []string // "Speaker: text"
		maxWords int
		want     string
	}{
		{"a turn is kept whole", []string{
			"Ann: We moved staging to Postgres 17. Backups now run nightly at 02:00.",
			"Bob: Lunch was nice today and the weather was fine.",
		}, 16, "2026-05-01: Ann: We moved staging to Postgres 17. Backups now run nightly at 02:00."},
		{"filler is left out, even with room", []string{
			"Ann: The release train leaves every Tuesday at noon.",
			"Bob: Thanks!",
			"Ann: Sure, sure.",
		}, 250, "2026-05-01: Ann: The release train leaves every Tuesday at noon."},
		{"the source beats the reply that repeats it", []string{
			"Ann: Customers in Norway asked for invoices in NOK.",
			"Bob: Invoices in NOK for customers in Norway, wow.",
		}, 12, "2026-05-01: Ann: Customers in Norway asked for invoices in NOK."},
		{"names and numbers weigh more", []string{
			"Ann: I finally went hiking somewhere lovely and quiet.",
			"Bob: I moved to Lisbon in 2019 with Carla.",
		}, 11, "2026-05-01: Bob: I moved to Lisbon in 2019 with Carla."},
		{"when no turn fits, sentences fill the rest", []string{
			"Ann: The flaky checkout test came from a timezone bug. We pinned UTC in the date picker and it passes now.",
		}, 12, "2026-05-01: Ann: The flaky checkout test came from a timezone bug."},
		{"when no sentence fits, the weightiest is cut", []string{
			"Ann: The flaky checkout test came from a timezone bug in the date picker.",
		}, 6, "2026-05-01: Ann: The flaky checkout test…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srcs := make([]*mneme.Record, len(tc.turns))
			for i, text := range tc.turns {
				speaker, _, _ := strings.Cut(text, ":")
				at := day.Add(time.Duration(i) * time.Minute)
				srcs[i] = &mneme.Record{ID: speaker + string(rune('0'+i)), Text: text, Speaker: speaker, OccurredAt: &at}
			}
			got, _ := extract(sentences(srcs), srcs, tc.maxWords)
			if got != tc.want || len(strings.Fields(got)) > tc.maxWords {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
