package eval

import (
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Sessions groups a conversation's turns by session, in order.
func Sessions(c Conversation) [][]Turn {
	var out [][]Turn
	for i, t := range c.Turns {
		if i == 0 || t.Session != c.Turns[i-1].Session {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], t)
	}
	return out
}

// Lead is the baseline summary of a session: its first max words.
func Lead(turns []Turn, max int) string {
	var out []string
	for _, t := range turns {
		out = append(out, strings.Fields(t.Text)...)
	}
	return strings.Join(out[:min(max, len(out))], " ")
}

// WordSet is the set of s's folded words.
func WordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range textnorm.Words(s) {
		out[w] = true
	}
	return out
}

// Kept says how much of an evidence turn a summary (its WordSet) keeps:
// at least half of the turn's content words (folded words of three
// letters or more that are not stopwords, the speaker's prefix aside), and
// all of them.
func Kept(t Turn, summary map[string]bool) (half, all bool) {
	n, in := 0, 0
	for _, w := range textnorm.Words(strings.TrimPrefix(t.Text, t.Speaker+":")) {
		if len(w) > 2 && !textnorm.IsStopword(w) {
			n++
			if summary[w] {
				in++
			}
		}
	}
	return 2*in >= n, in == n
}

// EvidenceTurns are the evidence turns of a conversation's category 1-4
// questions, with repeats (a turn two questions cite counts twice).
func EvidenceTurns(c Conversation) []Turn {
	turns := map[string]Turn{}
	for _, t := range c.Turns {
		turns[t.DiaID] = t
	}
	var out []Turn
	for _, q := range c.Questions {
		if q.Category < 1 || q.Category > 4 {
			continue
		}
		for _, d := range q.Evidence {
			if t, ok := turns[d]; ok {
				out = append(out, t)
			}
		}
	}
	return out
}
