// Package benchdata generates deterministic synthetic memories and queries
// for benchmarks: a Zipf-distributed vocabulary with English function words
// mixed in, so term frequencies look like real notes (a few very common
// words, a long tail of rare ones).
package benchdata

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/eval"
)

var syllables = strings.Fields("ka lo mi ne ru sa te vo pi da re lu mo fi ga he ji ko ba ze tu wa yo")

var function = strings.Fields("the a of to and in is for on with that it as we be by this are from at or")

// Corpus generates records and queries from one seed.
type Corpus struct {
	vocab []string
	rng   *rand.Rand
	zipf  *rand.Zipf
}

// New returns a corpus with a vocabulary of n words. The vocabulary depends
// only on n, so corpora with different seeds (records from one, queries from
// another) share their words; the seed drives what is drawn from it.
func New(seed uint64, n int) *Corpus {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	c := &Corpus{rng: rng, zipf: rand.NewZipf(rng, 1.07, 2, uint64(n-1))}
	words := rand.New(rand.NewPCG(42, 42))
	seen := map[string]bool{}
	for len(c.vocab) < n {
		var b strings.Builder
		for range 2 + words.IntN(3) {
			b.WriteString(syllables[words.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.vocab = append(c.vocab, w)
		}
	}
	return c
}

func (c *Corpus) word() string { return c.vocab[c.zipf.Uint64()] }

// Text returns about n words: one in three a function word.
func (c *Corpus) Text(n int) string {
	words := make([]string, n)
	for i := range words {
		if c.rng.IntN(3) == 0 {
			words[i] = function[c.rng.IntN(len(function))]
		} else {
			words[i] = c.word()
		}
	}
	return strings.Join(words, " ")
}

// Record returns the i-th synthetic memory: ~30 words, one of 10 projects
// (skewed: project p0 holds half), a type, two tags of 50, a time in 2025.
func (c *Corpus) Record(i int) *mneme.Record {
	project := "p0"
	if c.rng.IntN(2) == 1 {
		project = fmt.Sprintf("p%d", 1+c.rng.IntN(9))
	}
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(c.rng.IntN(365*24)) * time.Hour)
	types := []mneme.Type{mneme.Episodic, mneme.Semantic, mneme.Procedural}
	return &mneme.Record{
		ID: mneme.NewID(at), Project: project, Type: types[c.rng.IntN(3)], Kind: "note",
		Text:       fmt.Sprintf("%s (%d)", c.Text(25+c.rng.IntN(11)), i),
		Tags:       []string{fmt.Sprintf("t%d", c.rng.IntN(50)), fmt.Sprintf("t%d", c.rng.IntN(50))},
		OccurredAt: &at, CreatedAt: at,
		Meta: json.RawMessage(fmt.Sprintf(`{"tenant":"tenant-%d","document_version":%d}`, i%10, 1+i%3)),
	}
}

// MetaTenth is a meta filter the records of Record pass one in ten: their
// tenant is tenant-0 to tenant-9 in turn.
var MetaTenth = []mneme.MetaMatch{{Key: "tenant", Value: "tenant-3"}}

// Query returns a question-like query: a few function words and two to five
// vocabulary words drawn from the same distribution as the records.
func (c *Corpus) Query() string {
	words := []string{"how", "do", "we"}
	for range 2 + c.rng.IntN(4) {
		words = append(words, c.word())
	}
	return strings.Join(words, " ")
}

// NamedTime is a kind of question that names a time: Name ("day",
// "month") and Next, which makes each call's question, naming another day
// (month) of 2025 each time. A day of the corpus's year holds about 270
// records, a month 8,300.
type NamedTime struct {
	Name string
	Next func(*Corpus) string
}

// NamedTimes are the questions naming a day and naming a month.
func NamedTimes() []NamedTime {
	named := func(name, format string) NamedTime {
		i := 0
		return NamedTime{name, func(c *Corpus) string {
			i++
			return c.Text(8) + fmt.Sprintf(format, 1+i%28, time.Month(1+i%12))
		}}
	}
	return []NamedTime{named("day", " on %[1]d November 2025"), named("month", " in %[2]s 2025")}
}

// ReportPercentiles reports the median and 99th percentile of lat, in
// milliseconds, as the benchmark's p50-ms and p99-ms metrics.
func ReportPercentiles(b *testing.B, lat []time.Duration) {
	p50, p99 := eval.Percentiles(lat)
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p99, "p99-ms")
}
