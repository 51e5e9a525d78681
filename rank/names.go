package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// maxNameWords is the most words a name of several words ("Mary Ann Lee") has.
const maxNameWords = 3

// NameCandidates returns the words of query that may be a person's name,
// and the runs of up to maxNameWords of them, at most max in all, in order: a
// capitalised word that is no stopword; a run is such words one space
// apart. The first word of a sentence is capitalised anyway, so it counts
// only alone and with a possessive ("Caroline's …"). The Engine asks the
// store which of them are speakers (mneme.SpeakerFinder); the bound keeps
// a hostile long query to a few probes.
func NameCandidates(query string, max int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] && len(out) < max {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, run := range nameRuns(query) {
		words := run.words
		if run.first && (len(words) > 1 || !run.possessive) {
			words = words[1:] // "Describe the …", "Ask Tim …"
		}
		for i := range words {
			for n := 1; n <= maxNameWords && i+n <= len(words); n++ {
				add(strings.Join(words[i:i+n], " "))
			}
		}
		if len(out) == max {
			break
		}
	}
	return out
}

// nameRun is a run of name-like words one space apart.
type nameRun struct {
	words      []string
	first      bool // it begins a sentence
	possessive bool // its last word takes "'s"
}

// nameRuns splits query into its runs of name-like words.
func nameRuns(query string) []nameRun {
	var runs []nameRun
	var cur *nameRun
	start, gap := true, "" // at a sentence's start; what lies since the last word
	for i := 0; i < len(query); {
		j := wordEnd(query, i)
		if j == i {
			r, size := utf8.DecodeRuneInString(query[i:])
			gap += query[i : i+size]
			if strings.ContainsRune(".?!:;\n", r) {
				start = true
			}
			i += size
			continue
		}
		w := query[i:j]
		switch {
		case !nameLike(w):
			cur = nil
		case cur != nil && gap == " ":
			cur.words = append(cur.words, w)
		default:
			runs = append(runs, nameRun{words: []string{w}, first: start})
			cur = &runs[len(runs)-1]
		}
		if cur != nil {
			cur.possessive = possessive(query[j:]) > 0
		}
		start, gap, i = false, "", j
	}
	return runs
}

// nameLike: capitalised and no stopword.
func nameLike(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && !textnorm.IsStopword(textnorm.Fold(w))
}
