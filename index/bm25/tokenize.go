package bm25

import (
	"sync"

	"github.com/kljensen/snowball/english"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// stems caches the Snowball stem of each word: a corpus has far fewer
// distinct words than words, and stemming allocates.
var stems sync.Map

const maxStemCache = 1 << 20

var stemCount int64
var stemMu sync.Mutex

// Stem returns the index form of a folded word: its English Snowball stem.
func Stem(w string) string {
	if s, ok := stems.Load(w); ok {
		return s.(string)
	}
	s := english.Stem(w, true)
	stemMu.Lock()
	if stemCount < maxStemCache {
		stems.Store(w, s)
		stemCount++
	}
	stemMu.Unlock()
	return s
}

// terms returns the stemmed words of s.
func terms(s string) []string {
	words := textnorm.Words(s)
	for i, w := range words {
		words[i] = Stem(w)
	}
	return words
}
