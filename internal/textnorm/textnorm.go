// Package textnorm normalises text for hashing and splits queries into
// search terms the way the lexical index tokenises documents.
package textnorm

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Normalize returns s in NFC with runs of whitespace collapsed to one space
// and no leading or trailing space: two texts that differ only in layout
// normalise to the same string.
func Normalize(s string) string {
	return strings.Join(strings.Fields(norm.NFC.String(s)), " ")
}

// Hash is the hex sha256 of the normalised text: the dedupe key.
func Hash(s string) string {
	sum := sha256.Sum256([]byte(Normalize(s)))
	return hex.EncodeToString(sum[:])
}

// Fold lowercases s and strips accents (NFD, drop combining marks), as the
// index's unicode61 tokenizer with remove_diacritics does.
func Fold(s string) string {
	if isASCII(s) { // most text: no accents to strip, no normalisation to do
		return strings.ToLower(s)
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return out
}

// Words splits s into folded words: maximal runs of letters and digits.
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// Terms returns the distinct search terms of a query in order, without
// English stopwords. If every word is a stopword, the words are kept: a
// query for "the who" still searches for something.
func Terms(query string) []string {
	return distinct(QueryTerms(query))
}

// QueryTerms returns the search terms of a query as Terms does, but each
// as often as the query has it: BM25 weighs a term by its frequency in
// the query, which tells what a long query (a paragraph, a document) is
// about.
func QueryTerms(query string) []string {
	words := Words(query)
	var terms, stops []string
	for _, w := range words {
		if stopwords[w] {
			stops = append(stops, w)
		} else {
			terms = append(terms, w)
		}
	}
	if len(terms) == 0 {
		return stops
	}
	return terms
}

// distinct keeps the first of each word, in order.
func distinct(words []string) []string {
	seen := make(map[string]bool, len(words))
	out := words[:0]
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// CountWords returns the number of words of s as Words splits them (runs of
// letters and digits; an accent, which Fold strips, does not split one),
// counting no further than limit: a caller that only needs to know whether
// a text is short does not read all of a long one.
func CountWords(s string, limit int) int {
	n, in := 0, false
	for i := 0; i < len(s); {
		c, size := s[i], 1
		word := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			if unicode.Is(unicode.Mn, r) { // an accent, which Fold strips: within a word
				i += size
				continue
			}
			word = unicode.IsLetter(r) || unicode.IsNumber(r)
		}
		i += size
		if word && !in {
			if n == limit {
				return n
			}
			n++
		}
		in = word
	}
	return n
}
