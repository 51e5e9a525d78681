package ground

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// A sentence flagged with a mismatch keeps mismatchFactor of its score
// for each kind of mismatch: a changed number, date or name leaves most
// words of a sentence in its evidence, so overlap alone would pass it.
// Calibrated with `mneme bench ground` on LoCoMo dev conversations 1-3.
const (
	mismatchFactor = 0.05
	unflaggedFloor = 0.1
)

var (
	monthNames  = toSet("january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec")
	dayNames    = toSet("monday tuesday wednesday thursday friday saturday sunday")
	negators    = toSet("not no never nothing none nobody neither nor cannot without nowhere")
	rejecting   = toSet("over instead rather not never no without")
	numberWords = map[string]string{"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
		"seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
		"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30",
		"forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90", "hundred": "100",
		"once": "1", "twice": "2", "first": "1", "second": "2", "third": "3"}
)

func toSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// token is a word of a text: as written, folded, and its kind.
type token struct {
	raw, w string
	number string // its value, if a number (digits, or a spelled number)
	date   bool   // a month or a year
}

// tokenize splits text into words, marking numbers and date words.
func tokenize(text string) []token {
	var out []token
	for _, raw := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		t := token{raw: raw, w: textnorm.Fold(raw)}
		switch {
		case monthNames[t.w] || isYear(t.w):
			t.date = true
		case strings.IndexFunc(t.w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0:
			t.number = strings.TrimLeft(t.w, "0")
			if t.number == "" {
				t.number = "0"
			}
		case numberWords[t.w] != "":
			t.number = numberWords[t.w]
		}
		out = append(out, t)
	}
	return out
}

func isYear(w string) bool {
	return len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) &&
		strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// negated reports whether a text's words deny something: "not", "never",
// "no", a contraction ending in n't.
func negated(text string, toks []token) bool {
	if strings.Contains(text, "n't") || strings.Contains(text, "n’t") {
		return true
	}
	return slices.ContainsFunc(toks, func(t token) bool { return negators[t.w] })
}

// evSentence is a sentence of the evidence, as words.
type evSentence struct {
	toks    []token
	stems   map[string]bool
	negated bool
	names   map[string]bool // its capitalised words, folded
}

// sentencesOf splits a span's text into sentences; each names every name
// of the span (a turn's speaker, named once at its start, says all of it:
// "I" is the speaker) but those it only addresses ("Thanks, Maria!"): the
// one spoken to is no actor of what the turn tells, so "Maria lost her
// job" is not what "John: Hey Maria! I lost my job" says.
func sentencesOf(text string) []evSentence {
	var out []evSentence
	names := map[string]bool{}
	for _, t := range tokenize(vocative.ReplaceAllString(text, "$1")) {
		if isNameToken(t) {
			names[t.w] = true
		}
	}
	for _, r := range contextpack.Sentences(text) {
		s := text[r.Start:r.End]
		toks := tokenize(s)
		e := evSentence{toks: toks, stems: map[string]bool{}, negated: negated(s, toks), names: names}
		for _, t := range toks {
			e.stems[bm25.Stem(t.w)] = true
		}
		out = append(out, e)
	}
	return out
}

// vocative matches a name spoken to: after a greeting or thanks, or set
// off by a comma before the sentence ends ("Hey Maria", "Thanks, John!",
// "That's great, Tim."). The first group is what stays of it.
var vocative = regexp.MustCompile(`(?i:\b(hey|hi|hello|thanks|thank you|yo|bye|congrats|congratulations|sorry|dear|wow|oh)\b,?)\s+\p{Lu}\p{L}+|,\s*\p{Lu}\p{L}+\s*([!?.,]|$)`)

// isNameToken: a capitalised word, not a month, a weekday or "I".
func isNameToken(t token) bool {
	r, _ := utf8.DecodeRuneInString(t.raw)
	return unicode.IsUpper(r) && !monthNames[t.w] && !dayNames[t.w] && t.raw != "I" && t.number == "" && !t.date
}

// answerNames are the names of a sentence the evidence also names: its
// capitalised words but the first (which any sentence capitalises), and
// the first too when the evidence has it as a name.
func answerNames(toks []token, f *evidenceFacts) []string {
	var out []string
	for i, t := range toks {
		if isNameToken(t) && (i > 0 || f.names[t.w]) && f.names[t.w] && !slices.Contains(out, t.w) {
			out = append(out, t.w)
		}
	}
	return out
}

// evidenceFacts are what the whole package says, for mismatches.
type evidenceFacts struct {
	numbers  map[string]bool // in the text, or the day of its date
	days     map[string]bool // the days of the month its text may mean
	dates    map[string]bool // months (also abbreviated) and years
	rejected map[string]bool // names every mention of which is after a rejecting word ("over MongoDB")
	names    map[string]bool
	sents    []evSentence
}

func factsOf(spans []*span) *evidenceFacts {
	f := &evidenceFacts{numbers: map[string]bool{}, days: map[string]bool{}, dates: map[string]bool{}, rejected: map[string]bool{}, names: map[string]bool{}}
	accepted := map[string]bool{}
	for _, sp := range spans {
		for _, t := range tokenize(sp.text + " " + sp.base) {
			if t.number != "" {
				f.numbers[t.number] = true
			}
		}
		for _, t := range tokenize(sp.text + " " + sp.dates) {
			if t.number != "" {
				f.days[t.number] = true
			}
			if t.date {
				f.dates[t.w] = true
			}
		}
		for _, s := range sp.sents {
			f.sents = append(f.sents, s)
			for i, t := range s.toks {
				if !isNameToken(t) {
					continue
				}
				f.names[t.w] = true
				if i > 0 && rejecting[s.toks[i-1].w] || i > 1 && rejecting[s.toks[i-2].w] && s.toks[i-1].w == "of" {
					f.rejected[t.w] = true
				} else {
					accepted[t.w] = true
				}
			}
		}
	}
	for w := range accepted {
		delete(f.rejected, w)
	}
	return f
}

// mismatches returns the reason codes of what text says otherwise than its
// evidence: numbers and dates the evidence lacks, names it lacks or holds
// only as rejected, names the evidence that best supports the sentence
// gives as someone else, and the opposite polarity to that evidence.
func mismatches(text string, f *evidenceFacts) []string {
	toks := tokenize(text)
	names := answerNames(toks, f)
	var out []string
	add := func(code string) {
		if !slices.Contains(out, code) {
			out = append(out, code)
		}
	}
	for i, t := range toks {
		switch {
		case t.number != "" && dayOfMonth(toks, i):
			if !f.days[t.number] {
				add(DateMismatch)
			}
		case t.number != "" && !f.numbers[t.number]:
			add(NumberMismatch)
		case t.date && !f.dates[t.w] && !f.dates[strings.TrimLeft(t.w, "0")]:
			add(DateMismatch)
		}
	}
	content := map[string]bool{}
	for _, t := range toks {
		if !negators[t.w] && !textnorm.IsStopword(t.w) && !slices.Contains(names, t.w) {
			content[bm25.Stem(t.w)] = true
		}
	}
	best, bestN := -1, 0
	for i, s := range f.sents {
		n := 0
		for st := range content {
			if s.stems[st] {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	for _, name := range names {
		if f.rejected[name] || best >= 0 && swapped(name, content, f.sents, bestN) {
			add(EntityMismatch)
		}
	}
	neg := denies(toks, content)
	if len(content) == 0 {
		neg = negated(text, toks)
	}
	if best >= 0 && neg != denies(f.sents[best].toks, content) || best < 0 && neg {
		add(Negation)
	}
	return out
}

// denies reports whether words deny one of the content terms: a negating
// word ("not", "never") among the three words before it, or a contraction
// in n't ("haven't": "haven", "t") among them or right after it.
func denies(toks []token, content map[string]bool) bool {
	isNeg := func(j int) bool {
		w := toks[j].w
		return negators[w] || w == "t" && j > 0 && strings.HasSuffix(toks[j-1].w, "n")
	}
	for i, t := range toks {
		if !content[bm25.Stem(t.w)] {
			continue
		}
		for j := max(0, i-3); j < min(len(toks), i+2); j++ {
			if j != i && (j < i || toks[j].w == "t") && isNeg(j) {
				return true
			}
		}
	}
	return false
}

// dayOfMonth reports whether the number toks[i] is beside a month's name.
func dayOfMonth(toks []token, i int) bool {
	return i > 0 && monthNames[toks[i-1].w] || i+1 < len(toks) && monthNames[toks[i+1].w]
}

// swapped reports whether name is given as someone else: the sentences
// that best support the rest of the sentence (bestN of its content terms)
// name others, and none of them this one.
func swapped(name string, content map[string]bool, sents []evSentence, bestN int) bool {
	others := false
	for _, s := range sents {
		n := 0
		for st := range content {
			if s.stems[st] {
				n++
			}
		}
		if n < bestN {
			continue
		}
		if s.names[name] || slices.ContainsFunc(s.toks, func(t token) bool { return t.w == name }) {
			return false // it names this one, or says its name (a sentence asked back word for word)
		}
		others = others || len(s.names) > 0
	}
	return others
}
