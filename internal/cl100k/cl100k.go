// Package cl100k counts the tokens of OpenAI's cl100k_base encoding
// exactly as github.com/tiktoken-go/tokenizer does, over a vocabulary
// that costs nothing to load: vocab.bin, a hash table generated from that
// package's ranks, is read where it lies in the binary. The codec builds
// a map of its 100,256 tokens first, about 20 ms of every short process
// that counts (a hook's session start).
package cl100k

//go:generate go run gen.go

import (
	_ "embed"
	"sync"

	"github.com/dlclark/regexp2/v2"
)

// vocab.bin: magic, u32 token count n, u32 table bits, n+1 u32 offsets of
// the tokens' bytes, 1<<bits u32 slots, the tokens' bytes. A slot is 0
// (empty) or a 15-bit fingerprint of the token's hash above its rank+1
// (17 bits); the table is probed linearly from the hash's low bits.
//
//go:embed vocab.bin
var vocab string

const magic = "CL100K\x01\x00"

var table = sync.OnceValue(func() tab {
	if len(vocab) < len(magic)+8 || vocab[:len(magic)] != magic {
		panic("cl100k: vocab.bin is not a vocabulary: run go generate")
	}
	n, bits := int(u32(vocab, len(magic))), int(u32(vocab, len(magic)+4))
	t := tab{n: n, offs: len(magic) + 8, mask: 1<<bits - 1}
	t.slots = t.offs + 4*(n+1)
	t.bytes = t.slots + 4<<bits
	if t.bytes+int(u32(vocab, t.offs+4*n)) != len(vocab) {
		panic("cl100k: vocab.bin is truncated: run go generate")
	}
	return t
})

type tab struct {
	n, offs, slots, bytes int // where each part of vocab starts
	mask                  uint64
}

func u32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// hash is 64-bit FNV-1a, as gen.go uses.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// rank is s's rank (token id), or false.
func (t *tab) rank(s string) (uint32, bool) {
	h := hash(s)
	fp := uint32(h >> 49)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		slot := u32(vocab, t.slots+4*int(i))
		if slot == 0 {
			return 0, false
		}
		if slot>>17 != fp {
			continue
		}
		id := int(slot&(1<<17-1)) - 1
		from, to := int(u32(vocab, t.offs+4*id)), int(u32(vocab, t.offs+4*id+4))
		if to-from == len(s) && vocab[t.bytes+from:t.bytes+to] == s {
			return uint32(id), true
		}
	}
}

// split is cl100k_base's pre-tokenizer: the pieces BPE merges within.
var split = sync.OnceValue(func() *regexp2.Regexp {
	return regexp2.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`, regexp2.None)
})

// Count returns the number of cl100k_base tokens of s (special tokens'
// text counted as text, as the codec's Count does).
func Count(s string) (int, error) {
	t := table()
	m, err := split().FindStringMatch(s)
	n := 0
	for err == nil && m != nil {
		piece := m.String()
		if _, ok := t.rank(piece); ok {
			n++
		} else {
			n += merged(&t, piece)
		}
		m, err = split().FindNextMatch(m)
	}
	return n, err
}
