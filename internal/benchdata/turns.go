package benchdata

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// LoCoMoPath is the LoCoMo dev file: $MNEME_LOCOMO, else
// ../shared/bench/locomo-dev.json beside the repository, found from the
// test's package directory (depth levels below the repository root).
func LoCoMoPath(depth int) string {
	if p := os.Getenv("MNEME_LOCOMO"); p != "" {
		return p
	}
	up := strings.Repeat("../", depth+1)
	return filepath.Join(up, "shared", "bench", "locomo-dev.json")
}

// Turns returns n texts of the given number of words cut from the real
// conversation turns of the LoCoMo dev file ("speaker: text", in session
// order), so that benchmarks embed English as users write it (synthetic
// words split into several WordPiece tokens each and cost the model ~2.5×
// as much per word). Text i begins at turn i mod T and skips i/T words of
// it, so the n texts are distinct; each runs on into the following turns
// until it has the words asked for. Skips when the file is missing.
func Turns(tb testing.TB, path string, n, words int) []string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		skips.Skip(tb, "MNEME_LOCOMO=path/to/locomo-dev.json (in ../shared/bench)", "no LoCoMo dev data: "+err.Error())
	}
	turns, err := locomoTurns(data)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var all []string // every word, turn after turn
	start := make([]int, len(turns))
	for t, turn := range turns {
		start[t] = len(all)
		all = append(all, strings.Fields(turn)...)
	}
	out := make([]string, n)
	for i := range out {
		w := start[i%len(turns)] + i/len(turns)
		var b strings.Builder
		for k := range words {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(all[(w+k)%len(all)])
		}
		out[i] = b.String()
	}
	return out
}

// locomoTurns lists "speaker: text" for every turn of every sample, session
// by session in order.
func locomoTurns(data []byte) ([]string, error) {
	var samples []struct {
		Conversation map[string]json.RawMessage `json:"conversation"`
	}
	if err := json.Unmarshal(data, &samples); err != nil {
		return nil, err
	}
	var out []string
	for _, s := range samples {
		var sessions []int
		for k := range s.Conversation {
			if num, ok := strings.CutPrefix(k, "session_"); ok {
				if i, err := strconv.Atoi(num); err == nil {
					sessions = append(sessions, i)
				}
			}
		}
		sort.Ints(sessions)
		for _, i := range sessions {
			var turns []struct{ Speaker, Text string }
			if err := json.Unmarshal(s.Conversation["session_"+strconv.Itoa(i)], &turns); err != nil {
				return nil, err
			}
			for _, t := range turns {
				out = append(out, t.Speaker+": "+t.Text)
			}
		}
	}
	return out, nil
}
