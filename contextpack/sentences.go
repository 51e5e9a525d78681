package contextpack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Range is a byte range [Start, End) of a text.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Sentences splits text into sentences: byte ranges without surrounding
// whitespace. A sentence ends at a line break, or after ., ! or ? (and any
// closing quotes or brackets) followed by white space, unless the word
// before the dot is an abbreviation or an initial ("Dr.", "e.g.", "J.").
func Sentences(text string) []Range {
	var out []Range
	start := 0
	emit := func(end int) {
		if r, ok := trim(text, start, end); ok {
			out = append(out, r)
		}
		start = end
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			emit(i)
			i++
			start = i
			continue
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			j = closers(text, j)
			if (j == len(text) || text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') && !(c == '.' && abbreviation(text[start:i])) {
				emit(j)
				i = j
				continue
			}
			i = j
			continue
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	emit(len(text))
	return out
}

// trim shrinks [start, end) to exclude white space.
func trim(text string, start, end int) (Range, bool) {
	for start < end {
		r, size := utf8.DecodeRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	for end > start {
		r, size := utf8.DecodeLastRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	return Range{start, end}, end > start
}

// abbreviation reports whether before (the sentence up to a dot) ends in
// a word that a dot does not end a sentence after.
func abbreviation(before string) bool {
	k := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	word := strings.ToLower(before[k+1:])
	if utf8.RuneCountInString(word) == 1 { // an initial: "J. Smith"
		return true
	}
	if strings.Contains(word, ".") { // "e.g", "i.e", "u.s"
		return true
	}
	switch word {
	case "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "approx", "no", "fig", "inc", "ltd", "co":
		return true
	}
	return false
}

// closers skips the closing punctuation from i: more end marks, quotes
// and brackets.
func closers(text string, i int) int {
	for i < len(text) {
		switch {
		case strings.IndexByte(".!?\"')]", text[i]) >= 0:
			i++
		case strings.HasPrefix(text[i:], "”"), strings.HasPrefix(text[i:], "’"):
			i += len("”")
		default:
			return i
		}
	}
	return i
}
