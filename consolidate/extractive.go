package consolidate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// extractiveVersion names the extractive method; change it whenever the
// selection or the layout changes (it is part of the idempotency key).
const extractiveVersion = "extractive-2"

// Selection weights, tuned on LoCoMo dev (see docs/performance.md's consolidation
// section).
const (
	// costPower: a candidate's value is its gain per cost^costPower words.
	// Per word (1) favours short fragments, absolute gain (0) long turns.
	costPower = 0.5
	// echoWeight: a concept counts this much in a turn after the one that
	// brought it up (a reply that repeats it adds less than its source).
	echoWeight = 0.5
	// nameWeight: a name or a number (a capitalised word inside a sentence,
	// a word that starts with a digit) counts this many times a word.
	nameWeight = 3
	// minConcepts: a candidate that adds fewer new concepts is filler
	// ("Thanks!", "Wow, nice.").
	minConcepts = 2
)

// unit is one sentence of a source record.
type unit struct {
	src      int    // source index (time order)
	text     string // the sentence, without the speaker's prefix
	words    int
	concepts []string        // its distinct content words
	names    map[string]bool // those that are names or numbers
}

// sentences splits the sources into units.
func sentences(srcs []*mneme.Record) []unit {
	var units []unit
	for i, r := range srcs {
		for _, s := range split(spoken(r)) {
			u := unit{src: i, text: s, words: len(strings.Fields(s)), names: map[string]bool{}}
			for _, w := range textnorm.Words(s) {
				if len(w) > 1 && !textnorm.IsStopword(w) && !slices.Contains(u.concepts, w) {
					u.concepts = append(u.concepts, w)
				}
			}
			for k, f := range strings.Fields(s) {
				if r, _ := utf8.DecodeRuneInString(f); unicode.IsDigit(r) || (k > 0 && unicode.IsUpper(r)) {
					for _, w := range textnorm.Words(f) {
						u.names[w] = true
					}
				}
			}
			units = append(units, u)
		}
	}
	return units
}

// spoken is a record's text without a leading "Speaker: " (the summary
// puts the speaker back before each quoted sentence).
func spoken(r *mneme.Record) string {
	if r.Speaker != "" {
		if rest, ok := strings.CutPrefix(r.Text, r.Speaker+":"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return r.Text
}

// split cuts text into sentences: after . ! ? (and closing quotes or
// brackets) followed by a space, and at line breaks.
func split(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		rs := []rune(line)
		start := 0
		for i := 0; i < len(rs); i++ {
			if !strings.ContainsRune(".!?", rs[i]) {
				continue
			}
			j := i + 1
			for j < len(rs) && strings.ContainsRune(".!?\"')]”’", rs[j]) {
				j++
			}
			if j < len(rs) && unicode.IsSpace(rs[j]) {
				out = appendSentence(out, string(rs[start:j]))
				start, i = j, j
			}
		}
		out = appendSentence(out, string(rs[start:]))
	}
	return out
}

func appendSentence(out []string, s string) []string {
	if s = strings.Join(strings.Fields(s), " "); s != "" {
		out = append(out, s)
	}
	return out
}

// extract selects the sources' most informative turns that fit in
// maxWords once laid out, and lays them out in time order with dates.
// cited are the ids of the sources it quotes.
func extract(units []unit, srcs []*mneme.Record, maxWords int) (string, []string) {
	sel := newSelection(units, srcs)
	picked := sel.run(maxWords)
	if len(picked) == 0 { // not one sentence fits: the weightiest, cut
		best := 0
		for i := range units {
			if sel.alone(i) > sel.alone(best) {
				best = i
			}
		}
		u := units[best]
		u.text = clipWords(u.text, max(1, maxWords-1-len(strings.Fields(srcs[u.src].Speaker))))
		units, picked = []unit{u}, []int{0}
	}
	slices.Sort(picked)
	text := render(units, srcs, picked)
	var cited []string
	for _, i := range picked {
		if id := srcs[units[i].src].ID; !slices.Contains(cited, id) {
			cited = append(cited, id)
		}
	}
	return text, cited
}

func allOf(units []unit) []int {
	out := make([]int, len(units))
	for i := range out {
		out[i] = i
	}
	return out
}

// render lays out the picked units (in order): one line per day, each
// sentence after its speaker, sentences of one turn under one speaker.
func render(units []unit, srcs []*mneme.Record, picked []int) string {
	var b strings.Builder
	lastDay, lastSrc := "", -1
	for _, i := range picked {
		u := units[i]
		r := srcs[u.src]
		d := day(r.EventTime())
		if d != lastDay {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(d + ":")
			lastDay, lastSrc = d, -1
		}
		b.WriteString(" ")
		if u.src != lastSrc && r.Speaker != "" {
			b.WriteString(r.Speaker + ": ")
		}
		b.WriteString(u.text)
		lastSrc = u.src
	}
	return b.String()
}
