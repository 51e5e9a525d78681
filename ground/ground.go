// Package ground checks an answer against the context package it was
// written from: for each sentence of the answer, the spans that support
// it, whether it is supported and how strongly, and the content terms,
// numbers and names that no evidence contains. It is deterministic and
// calls no language model: support is the overlap of stemmed content
// terms, plus the embedding similarity from the configured embedder when
// there is one. The CLI (`mneme ground`), the MCP tool `ground` and
// `POST /v1/ground` only decode, call Check and encode.
package ground

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/quality"
)

// Reason codes, for programs.
const (
	EmptyAnswer         = "empty_answer"
	EmptyPackage        = "empty_package"
	UnsupportedClaim    = "unsupported_claim"
	NumberNotInEvidence = "number_not_in_evidence"
	EntityNotInEvidence = "entity_not_in_evidence"
	TermsNotInEvidence  = "terms_not_in_evidence"
	SupportedByMeaning  = "supported_by_meaning_only"
	// A sentence's value differs from what its best supporting evidence
	// says: another number, another date (month, year, weekday or day of
	// a month), another name in the role (or a name the evidence names
	// only as rejected: "chosen over MongoDB"), or the opposite polarity
	// (one says "not", "never" or "no" and the other does not).
	NumberMismatch       = "number_mismatch"
	DateMismatch         = "date_mismatch"
	EntityMismatch       = "entity_mismatch"
	Negation             = "negation"
	MaxAnswerBytes       = 64 << 10
	maxSupportsListed    = 3
	semanticFloor        = 0.25 // cosine under this counts as no similarity
	semanticWeight       = 0.35 // of the score, when an embedder is there
	defaultLexicalWeight = 1 - semanticWeight
)

// The score from which a sentence is supported, with an embedder and
// with words alone: one threshold, since the model only lifts a
// paraphrase's score (see judge). It is the threshold of words alone
// calibrated on LoCoMo dev pairs (the lowest whose precision of supported
// was at least 0.98: 0.55), carried onto the score's scale (see scale:
// 0.1 + 0.9·t). `mneme bench ground` measures it (docs/performance.md).
const (
	Threshold        = 0.6
	LexicalThreshold = 0.6
)

// Request is an answer to check and the package it was written from.
type Request struct {
	Package *contextpack.Package `json:"package"`
	Answer  string               `json:"answer"`
	Report  bool                 `json:"report,omitempty"` // add a content-free quality report
	// Exhaustive consults the model on every sentence, even those words
	// alone decide, so every score is exact rather than a lower bound
	// (threshold sweeps need it); the verdicts are the same.
	Exhaustive bool `json:"-"`
}

// Result is the verdict on an answer.
type Result struct {
	Supported bool       `json:"supported"` // every sentence is
	Score     float64    `json:"score"`     // the weakest sentence's
	Threshold float64    `json:"threshold"`
	Reasons   []string   `json:"reasons"` // distinct reason codes, in order of first appearance
	Sentences []Sentence `json:"sentences"`
	Embedder  string     `json:"embedder,omitempty"` // "" when support is lexical only
	TookMS    float64    `json:"took_ms"`
	// Report is the quality report, when the request asked for one.
	Report *quality.Report `json:"report,omitempty"`
}

// Sentence is the verdict on one sentence of the answer.
type Sentence struct {
	Start          int       `json:"start"` // byte offsets in the answer
	End            int       `json:"end"`
	Supported      bool      `json:"supported"`
	Score          float64   `json:"score"`
	Lexical        float64   `json:"lexical"`            // share of its content terms the best spans hold
	Semantic       *float64  `json:"semantic,omitempty"` // best cosine similarity to a span
	Support        []Support `json:"support"`
	MissingTerms   []string  `json:"missing_terms"`
	MissingNumbers []string  `json:"missing_numbers"`
	MissingNames   []string  `json:"missing_names"`
	Reasons        []string  `json:"reasons"`
}

// Support is a span of the package that supports a sentence.
type Support struct {
	N        int      `json:"n"` // the citation
	ID       string   `json:"id"`
	Start    int      `json:"start"`
	End      int      `json:"end"`
	Lexical  float64  `json:"lexical"`
	Semantic *float64 `json:"semantic,omitempty"`
}

// Embedder embeds texts (mneme.Engine does, through its cache); nil
// means lexical support only.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EngineEmbedder is eng with its embedder's id when it has one (it embeds
// through the Engine's cache), else nil and "": words alone. Every
// surface checks with it.
func EngineEmbedder(eng *mneme.Engine) (Embedder, string) {
	if em := eng.Embedder(); em != nil {
		return eng, em.Info().ID()
	}
	return nil, ""
}

// Check checks req.Answer against req.Package, with em for meaning (may
// be nil; embedderID names it in the result).
func Check(ctx context.Context, em Embedder, embedderID string, req Request) (*Result, error) {
	start := time.Now()
	if !utf8.ValidString(req.Answer) {
		return nil, mneme.Invalid("answer is not valid UTF-8")
	}
	if len(req.Answer) > MaxAnswerBytes {
		return nil, mneme.Invalid("answer is %d bytes, over the limit of %d", len(req.Answer), MaxAnswerBytes)
	}
	if req.Package == nil {
		return nil, mneme.Invalid("no package given: send the context package the answer was written from ({{package}})")
	}
	res := &Result{Threshold: LexicalThreshold, Reasons: []string{}, Sentences: []Sentence{}}
	spans := evidence(req.Package)
	if em != nil {
		res.Embedder, res.Threshold = embedderID, Threshold
	}
	sents := contextpack.Sentences(req.Answer)
	switch {
	case len(sents) == 0:
		res.Reasons = append(res.Reasons, EmptyAnswer)
	case len(spans) == 0:
		res.Reasons = append(res.Reasons, EmptyPackage)
	}
	var rep *quality.Report
	stage := func(string) {}
	if req.Report {
		rep = &quality.Report{Kind: quality.KindGround, ScopeSHA256: mneme.ScopeFrom(ctx).Hash(), Stages: []quality.Stage{}, Reasons: []string{}}
		stage = rep.Timer()
		defer func() { report(rep, res, len(spans)) }()
	}
	if len(sents) == 0 || len(spans) == 0 {
		res.TookMS = ms(time.Since(start))
		return res, nil
	}
	all, facts := vocabulary(spans), factsOf(spans)
	verdicts := make([]Sentence, len(sents))
	var open []int // the sentences words alone leave undecided
	for i, s := range sents {
		verdicts[i] = judge(req.Answer, s, spans, all, facts, nil, em != nil, res.Threshold)
		if em != nil && (req.Exhaustive || !decided(verdicts[i], res.Threshold)) {
			open = append(open, i)
		}
	}
	stage("words")
	vecs, err := embed(ctx, em, req.Answer, sents, open, spans)
	if err != nil {
		return nil, err
	}
	for _, i := range open {
		verdicts[i] = judge(req.Answer, sents[i], spans, all, facts, vecs.sentence(i), true, res.Threshold)
	}
	stage("meaning")
	if rep != nil {
		rep.Ground = &quality.Ground{Spans: len(spans)}
		for _, sp := range spans {
			if sp.vec != nil {
				rep.Ground.SpansEmbedded++
			}
		}
	}
	res.Supported, res.Score = true, 1
	for _, v := range verdicts {
		res.Sentences = append(res.Sentences, v)
		res.Supported = res.Supported && v.Supported
		res.Score = min(res.Score, v.Score)
		for _, r := range v.Reasons {
			if !slices.Contains(res.Reasons, r) {
				res.Reasons = append(res.Reasons, r)
			}
		}
	}
	res.TookMS = ms(time.Since(start))
	return res, nil
}

// report completes rep, the quality report of the check that gave res
// over a package of spans spans, and attaches it.
func report(rep *quality.Report, res *Result, spans int) {
	if rep.Ground == nil {
		rep.Ground = &quality.Ground{Spans: spans}
	}
	rep.Ground.Sentences = len(res.Sentences)
	var score, lex, sem []float64
	for _, s := range res.Sentences {
		if s.Supported {
			rep.Ground.Supported++
		}
		score, lex = append(score, s.Score), append(lex, s.Lexical)
		if s.Semantic != nil {
			sem = append(sem, *s.Semantic)
		}
	}
	rep.Scores = &quality.Scores{Final: quality.Summarize(score), Lexical: quality.Summarize(lex), Vector: quality.Summarize(sem)}
	rep.Groundedness = quality.Ptr(res.Score)
	for _, r := range res.Reasons {
		rep.AddReason(r)
	}
	if res.Embedder == "" {
		rep.AddReason(quality.LexicalOnly)
	}
	rep.TookMS = res.TookMS
	res.Report = rep
}

// span is one piece of evidence: a retained span, its terms and words.
type span struct {
	n        int
	id       string
	r        contextpack.Range
	text     string
	stems    map[string]bool
	words    map[string]bool // folded words, and the parts of its date
	sents    []evSentence
	base     string // the words of its date
	dates    string // the words of the dates its text may mean (dateWords)
	vec      []float32
	semantic float64
}

// evidence lists the package's spans; each also counts its memory's date
// (year, month name, day) as words, since headers and citations say when.
func evidence(p *contextpack.Package) []*span {
	var out []*span
	for _, g := range p.Groups {
		for _, it := range g.Items {
			date := ""
			if it.N-1 < len(p.Citations) && it.N >= 1 {
				date = p.Citations[it.N-1].Date
			}
			for _, s := range it.Spans {
				sp := &span{n: it.N, id: it.ID, r: contextpack.Range{Start: s.Start, End: s.End}, text: s.Text,
					stems: map[string]bool{}, words: map[string]bool{}}
				sp.dates = dateWords(date, s.Text)
				sp.base, _, _ = strings.Cut(sp.dates, "\n")
				for _, w := range textnorm.Words(s.Text + " " + sp.dates) {
					sp.words[w] = true
					sp.stems[bm25.Stem(w)] = true
				}
				sp.sents = sentencesOf(s.Text)
				out = append(out, sp)
			}
		}
	}
	return out
}

// dateWords spells a 2006-01-02 date as the words an answer would use
// (its first line); when text speaks of a time relative to it, the days
// it may mean too (see relativeDays), and the month and year before for
// "last month" and "last year": an answer gives the day meant.
func dateWords(date, text string) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return ""
	}
	const layout = "2006 January 2 Jan Monday"
	words := []string{t.Format(layout) + "\n"}
	days := map[int]bool{}
	for _, w := range textnorm.Words(text) {
		for _, d := range relativeDays[w] {
			days[d] = true
		}
		switch w {
		case "month":
			words = append(words, t.AddDate(0, -1, 0).Format("January"))
		case "year":
			words = append(words, t.AddDate(-1, 0, 0).Format("2006"))
		}
	}
	for d := range days {
		words = append(words, t.AddDate(0, 0, d).Format(layout))
	}
	return strings.Join(append(words, countedBack(t, text)...), " ")
}

// countedBack spells the years and months a text counts back from its
// date t ("three years ago", "seven years now", "for 5 years", "two months
// ago"): an answer gives the year or month meant ("in 2019", "since 2016").
func countedBack(t time.Time, text string) []string {
	var out []string
	toks := tokenize(text)
	for i := 0; i+1 < len(toks); i++ {
		n, err := strconv.Atoi(toks[i].number)
		if err != nil || n <= 0 || n > 100 {
			continue
		}
		switch toks[i+1].w {
		case "year", "years":
			out = append(out, t.AddDate(-n, 0, 0).Format("2006"))
		case "month", "months":
			out = append(out, t.AddDate(0, -n, 0).Format("January 2006"))
		}
	}
	return out
}

// relativeDays are the days, from a text's date, that its words may mean.
var relativeDays = map[string][]int{
	"yesterday": {-1}, "tomorrow": {1}, "tonight": {0},
	"last": week(-1), "past": week(-1), "recently": week(-1), "weekend": week(-1), "ago": week(-1), "earlier": week(-1),
	"next": week(1),
}

// week is the seven days after (dir 1) or before (-1) a day.
func week(dir int) []int {
	out := make([]int, 7)
	for i := range out {
		out[i] = dir * (i + 1)
	}
	return out
}

// vocabulary is every word and stem of the evidence.
func vocabulary(spans []*span) map[string]bool {
	all := map[string]bool{}
	for _, s := range spans {
		for w := range s.words {
			all[w] = true
		}
		for w := range s.stems {
			all[w] = true
		}
	}
	return all
}

// judge scores one sentence of the answer against the spans: on words
// alone without a model, else on words and meaning (vec, the sentence's
// vector; nil scores it with no similarity, a lower bound).
func judge(answer string, s contextpack.Range, spans []*span, all map[string]bool, f *evidenceFacts, vec []float32, model bool, threshold float64) Sentence {
	text := answer[s.Start:s.End]
	v := Sentence{Start: s.Start, End: s.End, Support: []Support{}, MissingTerms: []string{}, MissingNumbers: []string{}, MissingNames: []string{}, Reasons: []string{}}
	terms := textnorm.Terms(text)
	stems := make([]string, len(terms))
	for i, t := range terms {
		stems[i] = bm25.Stem(t)
	}
	// the best spans by overlap; their union's coverage is the lexical score
	type scored struct {
		sp  *span
		lex float64
	}
	ranked := make([]scored, 0, len(spans))
	for _, sp := range spans {
		n := 0
		for _, st := range stems {
			if sp.stems[st] {
				n++
			}
		}
		lex := 0.0
		if len(stems) > 0 {
			lex = float64(n) / float64(len(stems))
		}
		sp.semantic = 0
		if vec != nil && sp.vec != nil {
			sp.semantic = cosine(vec, sp.vec)
		}
		ranked = append(ranked, scored{sp, lex})
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		return -cmpFloat(a.lex+a.sp.semantic/2, b.lex+b.sp.semantic/2)
	})
	covered := map[string]bool{}
	best := 0.0
	for _, r := range ranked[:min(maxSupportsListed, len(ranked))] {
		for _, st := range stems {
			if r.sp.stems[st] {
				covered[st] = true
			}
		}
		best = max(best, r.sp.semantic)
		if r.lex > 0 || r.sp.semantic >= semanticFloor {
			sup := Support{N: r.sp.n, ID: r.sp.id, Start: r.sp.r.Start, End: r.sp.r.End, Lexical: round(r.lex)}
			if vec != nil && r.sp.vec != nil { // a span not embedded has no similarity to show
				x := round(r.sp.semantic)
				sup.Semantic = &x
			}
			v.Support = append(v.Support, sup)
		}
	}
	if len(stems) > 0 {
		v.Lexical = round(float64(len(covered)) / float64(len(stems)))
	}
	for i, st := range stems {
		if !all[st] && !all[terms[i]] {
			v.MissingTerms = append(v.MissingTerms, terms[i])
		}
	}
	v.MissingNumbers, v.MissingNames = missing(text, all)
	// Words that all are in the evidence support a sentence whatever the
	// model says; the model lifts a paraphrase.
	score := v.Lexical
	if vec != nil {
		x := round(best)
		v.Semantic = &x
		score = max(score, defaultLexicalWeight*v.Lexical+semanticWeight*max(0, (best-semanticFloor)/(1-semanticFloor)))
	}
	if len(v.MissingNumbers) > 0 {
		v.Reasons = append(v.Reasons, NumberNotInEvidence)
	}
	if len(v.MissingNames) > 0 {
		v.Reasons = append(v.Reasons, EntityNotInEvidence)
	}
	v.Reasons = append(v.Reasons, mismatches(text, f)...)
	v.Score = round(scale(max(0, min(1, score)), factor(v)))
	v.Supported = v.Score >= threshold
	if !v.Supported {
		v.Reasons = append([]string{UnsupportedClaim}, v.Reasons...)
	}
	if len(v.MissingTerms) > 0 {
		v.Reasons = append(v.Reasons, TermsNotInEvidence)
	}
	return v
}

// scale maps a sentence's support to its score: a sentence nothing
// contradicts scores from unflaggedFloor (no word in the evidence) to 1.
// One the evidence contradicts scores f (under mismatchFactor: a
// contradiction says more against a sentence than words missing from its
// evidence) times the share of it the evidence does not confirm: the more
// of the rest the evidence says too, the surer it is that the sentence
// speaks of the same thing and gets its value wrong; a flagged value in a
// sentence the evidence barely touches may be one it only implies ("2022"
// for "last year"). On LoCoMo dev (`mneme bench ground`) this ordering
// raised the AUC from 0.872 to 0.940 (conversations 1-3: 0.920 to 0.962;
// 4-5: 0.827 to 0.916); f times the support gave the reverse order.
func scale(support, f float64) float64 {
	if f < 1 {
		return f * (1 - support)
	}
	return unflaggedFloor + (1-unflaggedFloor)*support
}

// factor is the share of its score a sentence keeps: mismatchFactor for
// each kind of value it has otherwise than its evidence (a number, a
// date, a name missing or given as another, the polarity).
func factor(v Sentence) float64 {
	f := 1.0
	for _, r := range v.Reasons {
		switch r {
		case NumberMismatch, DateMismatch, EntityMismatch, EntityNotInEvidence, Negation:
			f *= mismatchFactor
		case NumberNotInEvidence:
			if !slices.Contains(v.Reasons, NumberMismatch) && !slices.Contains(v.Reasons, DateMismatch) {
				f *= mismatchFactor
			}
		}
	}
	return f
}

// decided reports whether a sentence judged with the model but without its
// vector has its verdict whatever its similarity: its words already reach
// the threshold, or full similarity could not lift it there. Most
// sentences of an answer written from its package are supported by words
// alone, and embedding is nearly all of a check's cost.
func decided(v Sentence, threshold float64) bool {
	f := factor(v)
	return scale(v.Lexical, f) >= threshold || scale(max(v.Lexical, defaultLexicalWeight*v.Lexical+semanticWeight), f) < threshold
}

// missing lists the numbers and names of text that no evidence holds. A
// name is a capitalised word that does not start the sentence, or any
// word with a capital after its first letter ("iPhone", "GPT").
func missing(text string, all map[string]bool) (numbers, names []string) {
	numbers, names = []string{}, []string{}
	first := true
	for _, raw := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		w := textnorm.Fold(raw)
		switch {
		case strings.IndexFunc(raw, unicode.IsDigit) >= 0:
			if !all[w] && !all[strings.TrimLeft(w, "0")] && !slices.Contains(numbers, raw) {
				numbers = append(numbers, raw)
			}
		case isName(raw, first) && !all[w] && !all[bm25.Stem(w)] && !monthNames[w] && !dayNames[w] && !slices.Contains(names, raw):
			names = append(names, raw)
		}
		first = false
	}
	return numbers, names
}

func isName(w string, first bool) bool {
	r, size := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) || w == "I" {
		return false
	}
	return !first || strings.IndexFunc(w[size:], unicode.IsUpper) >= 0
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }
