package textnorm

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzTextnorm: the query normaliser on any input. Normalize is idempotent
// and leaves no outer or doubled spaces; Hash follows Normalize; Words are
// non-empty runs of letters and digits that split the same way again, as
// many as CountWords counts;
// Terms are distinct words of the query, stopwords only when nothing else
// is left.
func FuzzTextnorm(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on %q: %q then %q", s, n, Normalize(n))
		}
		if utf8.ValidString(s) && (strings.HasPrefix(n, " ") || strings.HasSuffix(n, " ") || strings.Contains(n, "  ")) {
			t.Fatalf("Normalize(%q) = %q keeps outer or doubled spaces", s, n)
		}
		if Hash(s) != Hash(n) || len(Hash(s)) != 64 {
			t.Fatalf("Hash(%q) does not follow Normalize", s)
		}
		words := Words(s)
		for _, w := range words {
			if w == "" {
				t.Fatalf("Words(%q) has an empty word", s)
			}
			for _, r := range w {
				if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
					t.Fatalf("Words(%q): %q holds %q, not a letter or digit", s, w, r)
				}
			}
		}
		if again := Words(strings.Join(words, " ")); !slices.Equal(again, words) {
			t.Fatalf("Words(%q) = %q, but its words split again as %q", s, words, again)
		}
		if n := CountWords(s, len(s)+1); utf8.ValidString(s) && n != len(words) {
			t.Fatalf("CountWords(%q) = %d, but Words gives %d: %q", s, n, len(words), words)
		}
		if n := CountWords(s, 3); n != min(3, CountWords(s, len(s)+1)) {
			t.Fatalf("CountWords(%q, 3) = %d", s, n)
		}
		terms := Terms(s)
		seen := map[string]bool{}
		stops := 0
		for _, w := range terms {
			if seen[w] || !slices.Contains(words, w) {
				t.Fatalf("Terms(%q) = %q: a repeated term or one that is not a word", s, terms)
			}
			seen[w] = true
			if stopwords[w] {
				stops++
			}
		}
		if stops > 0 && stops < len(terms) {
			t.Fatalf("Terms(%q) = %q mixes stopwords with other terms", s, terms)
		}
		if len(terms) == 0 && len(words) > 0 {
			t.Fatalf("Terms(%q) is empty for words %q", s, words)
		}
	})
}
