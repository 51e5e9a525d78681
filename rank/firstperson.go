package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// FirstPerson rewrites a question about a participant of a conversation
// as that participant would ask it, for the vector lane: each of the
// speakers' names becomes "I", and a name with "'s" becomes "my" ("What
// is Caroline's identity?" → "What is my identity?"). A name in the
// query's vector pulls every turn that merely addresses that person
// ("Thanks, Caroline!"), while what answers is the person's own turn,
// told in the first person; who is asked about is SpeakerMatch's work.
// The words of a speaker of several words ("Mary Ann") become one "I".
// Names compare as folded words; a query naming none comes back as is.
// The Engine calls it with the speakers among NameCandidates of the
// query that the store finds under the recall's filter
// (Profile.FirstPerson).
func FirstPerson(query string, speakers []string) string {
	names := map[string]bool{}
	for _, s := range speakers {
		for _, w := range textnorm.Words(s) {
			names[w] = true
		}
	}
	if len(names) == 0 {
		return query
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(query); {
		j := wordEnd(query, i)
		if j == i { // not a word
			_, size := utf8.DecodeRuneInString(query[i:])
			b.WriteString(query[i : i+size])
			i += size
			continue
		}
		if !names[textnorm.Fold(query[i:j])] {
			b.WriteString(query[i:j])
			i = j
			continue
		}
		for j < len(query) && query[j] == ' ' { // the other words of the same name
			k := wordEnd(query, j+1)
			if k == j+1 || !names[textnorm.Fold(query[j+1:k])] {
				break
			}
			j = k
		}
		changed = true
		if poss := possessive(query[j:]); poss > 0 {
			b.WriteString("my")
			j += poss
		} else {
			b.WriteString("I")
		}
		i = j
	}
	if !changed {
		return query
	}
	return b.String()
}

// wordEnd is where the word (letters and digits) starting at i ends; i if
// none starts there.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			break
		}
		i += size
	}
	return i
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// possessive is the length of the "'s" (or "’s") that s starts with, else 0.
func possessive(s string) int {
	for _, p := range []string{"'s", "’s"} {
		if strings.HasPrefix(s, p) {
			rest := s[len(p):]
			if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !isWordRune(r) {
				return len(p)
			}
		}
	}
	return 0
}
