package chunk

import (
	"unicode"
	"unicode/utf8"
)

// A word costs one token per wordRunes runes and a punctuation run one per
// punctRunes: WordPiece keeps common short words whole but breaks long words
// and punctuation up. Growing with length matters: it is what lets a single
// huge "word" (minified code, base64) exceed the limit and be split. The
// estimate errs high so chunks stay inside an embedding model's window.
const (
	wordRunes  = 6
	punctRunes = 3
)

type class uint8

const (
	clSpace class = iota
	clWord
	clPunct
	clIdeo // Han and kana: BERT-style tokenizers give each rune its own token
)

var asciiClass = func() (t [utf8.RuneSelf]class) {
	for b := range utf8.RuneSelf {
		switch r := rune(b); {
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			t[b] = clWord
		case unicode.IsSpace(r):
			t[b] = clSpace
		default:
			t[b] = clPunct
		}
	}
	return t
}()

func classOf(r rune) class {
	switch {
	case r < utf8.RuneSelf:
		return asciiClass[r]
	case unicode.IsSpace(r):
		return clSpace
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
		return clIdeo
	case r == utf8.RuneError || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
		return clWord
	}
	return clPunct
}

// counter is Tokens as a state machine, so a hard split can stop exactly
// where the budget runs out. Its count is additive over whitespace-separated
// pieces and subadditive over any cut, which keeps packed sums honest.
type counter struct {
	n, run int
	cl     class
}

func (c *counter) add(cl class) {
	switch cl {
	case clSpace, clIdeo:
		c.cl, c.run = cl, 0
		if cl == clIdeo {
			c.n++
		}
		return
	}
	if cl != c.cl {
		c.cl, c.run = cl, 0
	}
	per := wordRunes
	if cl == clPunct {
		per = punctRunes
	}
	if c.run%per == 0 {
		c.n++
	}
	c.run++
}

// Tokens estimates the token count of s: each run of letters and digits and
// each run of punctuation counts, long runs count more (see wordRunes), and
// every Han or kana rune counts one. It is linear and does not allocate.
func Tokens(s string) int {
	var c counter
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			c.add(asciiClass[b])
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		c.add(classOf(r))
		i += n
	}
	return c.n
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiClass[r] == clSpace
	}
	return unicode.IsSpace(r)
}
