package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Perturbation kinds: a gold answer changed so that its evidence no
// longer supports it.
const (
	PerturbNumber   = "number"      // a number changed to another of the conversation's
	PerturbDate     = "date"        // a month, year or weekday changed to another of the conversation's
	PerturbName     = "name"        // a name changed to another of the conversation's, not in the evidence
	PerturbNegation = "negation"    // "not" added
	PerturbSwap     = "entity_swap" // a name changed to another the evidence holds
)

// PerturbKinds lists the kinds in report order.
var PerturbKinds = []string{PerturbNumber, PerturbDate, PerturbName, PerturbNegation, PerturbSwap}

// Values are a conversation's numbers, months, years, weekdays and names,
// each in the order first met, to change an answer's with.
type Values struct {
	Numbers, Months, Years, Weekdays, Names []string
}

var (
	months   = strings.Fields("January February March April May June July August September October November December")
	weekdays = strings.Fields("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
	// NumberWords are the spelled numbers an answer may use.
	numberWords = strings.Fields("one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred")
	auxiliaries = strings.Fields("is was are were has have had does did do can could will would should")
)

// ConversationValues collects c's values: numbers and names from its
// turns, months, years and weekdays from its session dates and turns.
// A name is a speaker, or a word met capitalised at least twice inside a
// sentence (not first), never in lower case, and not in capitals only.
func ConversationValues(c Conversation) Values {
	var v Values
	seen := map[string]bool{}
	add := func(list *[]string, w string) {
		if !seen[w] {
			seen[w] = true
			*list = append(*list, w)
		}
	}
	count, lower := map[string]int{}, map[string]bool{}
	var capitalised []string
	for _, t := range c.Turns {
		add(&v.Names, t.Speaker)
		add(&v.Months, t.Date.Month().String())
		add(&v.Years, t.Date.Format("2006"))
		add(&v.Weekdays, t.Date.Weekday().String())
		for _, w := range inner(t.Text) {
			switch kind := valueKind(w); {
			case kind == PerturbNumber:
				add(&v.Numbers, w)
			case kind == PerturbDate:
			case isCapitalised(w) && len(w) > 2 && strings.ToUpper(w) != w:
				if count[w]++; count[w] == 2 {
					capitalised = append(capitalised, w)
				}
			default:
				lower[strings.ToLower(w)] = true
			}
		}
	}
	for _, w := range capitalised {
		if !lower[strings.ToLower(w)] {
			add(&v.Names, w)
		}
	}
	return v
}

// Perturb returns answer changed by kind, using values v, such that the
// evidence (its text, with the dates of its turns) does not hold the new
// value (for an entity swap: does hold it); ok is false when answer has
// nothing of that kind or no value fits. pick chooses among the n fitting
// values.
func Perturb(kind, answer, evidence string, v Values, pick func(n int) int) (string, bool) {
	in := map[string]bool{}
	for _, w := range tokens(evidence) {
		in[strings.ToLower(w)] = true
	}
	toks := tokens(answer)
	has := func(w string) bool { return in[strings.ToLower(w)] }
	inAnswer := func(w string) bool {
		for _, t := range toks {
			if strings.EqualFold(t, w) {
				return true
			}
		}
		return false
	}
	replace := func(match func(string) bool, pool []string, want bool) (string, bool) {
		for _, t := range toks {
			if !match(t) {
				continue
			}
			var fit []string
			for _, p := range pool {
				if !strings.EqualFold(p, t) && has(p) == want && !inAnswer(p) {
					fit = append(fit, p)
				}
			}
			if len(fit) == 0 {
				continue
			}
			return replaceWord(answer, t, fit[pick(len(fit))]), true
		}
		return "", false
	}
	switch kind {
	case PerturbNumber:
		return replace(func(w string) bool { return valueKind(w) == PerturbNumber }, v.Numbers, false)
	case PerturbDate:
		for _, pool := range [][]string{v.Months, v.Years, v.Weekdays} {
			if out, ok := replace(func(w string) bool { return containsFold(pool, w) }, pool, false); ok {
				return out, true
			}
		}
		return "", false
	case PerturbName:
		return replace(func(w string) bool { return containsFold(v.Names, w) }, v.Names, false)
	case PerturbSwap:
		return replace(func(w string) bool { return containsFold(v.Names, w) }, v.Names, true)
	case PerturbNegation:
		return negate(answer, toks), true
	}
	return "", false
}

// negate adds "not" after the answer's first auxiliary verb, or before it
// all (its first letter kept: it may start a name).
func negate(answer string, toks []string) string {
	for _, t := range toks {
		if containsFold(auxiliaries, t) {
			return replaceWord(answer, t, t+" not")
		}
	}
	return "Not " + answer
}

// valueKind says whether w is a number (digits, or a spelled number), a
// date word (a month, a weekday, a year from 1900 to 2099), or neither.
func valueKind(w string) string {
	switch {
	case containsFold(months, w) || containsFold(weekdays, w) || isYear(w):
		return PerturbDate
	case strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 || containsFold(numberWords, w):
		return PerturbNumber
	}
	return ""
}

func isYear(w string) bool {
	return len(w) == 4 && (strings.HasPrefix(w, "19") || strings.HasPrefix(w, "20")) &&
		strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

func isCapitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func containsFold(list []string, w string) bool {
	for _, x := range list {
		if strings.EqualFold(x, w) {
			return true
		}
	}
	return false
}

// inner returns the words of a turn ("Speaker: text") that do not start
// a sentence.
func inner(text string) []string {
	var out []string
	_, body, _ := strings.Cut(text, ": ")
	for _, s := range strings.FieldsFunc(body, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' }) {
		if ws := tokens(s); len(ws) > 1 {
			out = append(out, ws[1:]...)
		}
	}
	return out
}

// tokens splits s into runs of letters and digits.
func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// replaceWord replaces the first whole-word occurrence of old in s.
func replaceWord(s, old, repl string) string {
	for at := 0; ; {
		i := strings.Index(s[at:], old)
		if i < 0 {
			return s
		}
		i += at
		end := i + len(old)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (i == 0 || !isWordRune(before)) && (end == len(s) || !isWordRune(after)) {
			return s[:i] + repl + s[end:]
		}
		at = end
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }
