package consolidate

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// extractiveVersion names the extractive method; change it whenever the
// selection or the layout changes (it is part of the idempotency key).
const extractiveVersion = "extractive-1"

// Selection weights, tuned on LoCoMo dev (see the README's consolidation
// section): how much a sentence's record embedding counts against its
// words, and centrality against redundancy (MMR).
const (
	embedWeight = 0.5
	lambda      = 0.7
	// nearDuplicate: a sentence this similar to one already chosen adds
	// nothing.
	nearDuplicate = 0.92
	// minWords: shorter sentences ("Thanks!", "Wow, nice.") carry no memory.
	minWords = 4
)

// unit is one sentence of a source record.
type unit struct {
	src, pos int    // source index (time order), sentence index in it
	text     string // the sentence, without the speaker's prefix
	words    int
	lex      map[string]float64 // tf-idf over the window, unit length
	vec      []float32          // the source record's embedding, unit length; nil without one
}

// sentences splits the sources into units and weighs them.
func sentences(ctx context.Context, eng *mneme.Engine, srcs []*mneme.Record) ([]unit, error) {
	vecs, err := eng.RecordVectors(ctx, srcs)
	if err != nil {
		return nil, err
	}
	var units []unit
	df := map[string]int{}
	for i, r := range srcs {
		for j, s := range split(spoken(r)) {
			u := unit{src: i, pos: j, text: s, words: len(strings.Fields(s)), lex: map[string]float64{}}
			if vecs != nil {
				u.vec = normalize(vecs[i])
			}
			for _, w := range textnorm.Words(s) {
				if !textnorm.IsStopword(w) && len(w) > 1 {
					u.lex[w]++
				}
			}
			for w := range u.lex {
				df[w]++
			}
			units = append(units, u)
		}
	}
	n := float64(len(units))
	for _, u := range units {
		var norm float64
		for w, tf := range u.lex {
			x := (1 + math.Log(tf)) * math.Log(1+n/float64(df[w]))
			u.lex[w], norm = x, norm+x*x
		}
		for w := range u.lex {
			u.lex[w] /= math.Sqrt(norm)
		}
	}
	return units, nil
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

func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(n))
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

func lexDot(a, b map[string]float64) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	var s float64
	for w, x := range a {
		s += x * b[w]
	}
	return s
}

// similarity of two units: their records' embeddings and their words.
func similarity(a, b *unit) float64 {
	lex := lexDot(a.lex, b.lex)
	if a.vec == nil || b.vec == nil {
		return lex
	}
	return embedWeight*dot(a.vec, b.vec) + (1-embedWeight)*lex
}

// centrality scores each unit by its similarity to the window's centroid
// (in embeddings and in words): what the window is mostly about.
func centrality(units []unit) []float64 {
	var vc []float32
	lc := map[string]float64{}
	for _, u := range units {
		if u.vec != nil {
			if vc == nil {
				vc = make([]float32, len(u.vec))
			}
			for i, x := range u.vec {
				vc[i] += x
			}
		}
		for w, x := range u.lex {
			lc[w] += x
		}
	}
	vc = normalize(vc)
	var n float64
	for _, x := range lc {
		n += x * x
	}
	for w := range lc {
		lc[w] /= math.Sqrt(n)
	}
	c := unit{vec: vc, lex: lc} // the centroid, shaped as a unit for similarity
	out := make([]float64, len(units))
	for i := range units {
		out[i] = similarity(&units[i], &c)
	}
	return out
}

// extract selects central, non-redundant sentences (MMR) that fit in
// maxWords once laid out, and lays them out in time order with dates.
// cited are the ids of the sources it quotes.
func extract(units []unit, srcs []*mneme.Record, maxWords int) (string, []string) {
	cent := centrality(units)
	chosen := make([]bool, len(units))
	redundancy := make([]float64, len(units))
	var picked []int
	used := 0
	for {
		best, bestScore := -1, math.Inf(-1)
		for i := range units {
			if chosen[i] || units[i].words < minWords || redundancy[i] > nearDuplicate || used+cost(&units[i], srcs) > maxWords {
				continue
			}
			if s := lambda*cent[i] - (1-lambda)*redundancy[i]; s > bestScore {
				best, bestScore = i, s
			}
		}
		if best < 0 {
			break
		}
		chosen[best], picked, used = true, append(picked, best), used+cost(&units[best], srcs)
		for i := range units {
			if !chosen[i] {
				redundancy[i] = max(redundancy[i], similarity(&units[i], &units[best]))
			}
		}
	}
	if len(picked) == 0 { // not one sentence fits: the most central, cut
		best := 0
		for i := range units {
			if cent[i] > cent[best] {
				best = i
			}
		}
		u := units[best]
		u.text = clipWords(u.text, max(1, maxWords-cost(&unit{src: u.src}, srcs)))
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

// cost bounds the words a unit adds to the layout: its own, its speaker's
// and its date's.
func cost(u *unit, srcs []*mneme.Record) int {
	return u.words + 1 + len(strings.Fields(srcs[u.src].Speaker))
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
