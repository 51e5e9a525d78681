//go:build ignore

// gen writes vocab.bin, the cl100k_base vocabulary as a hash table that
// cl100k reads where it lies in the binary, from the ranks that
// github.com/tiktoken-go/tokenizer compiles in. Run by go generate.
package main

import (
	"encoding/binary"
	"log"
	"os"

	"github.com/tiktoken-go/tokenizer/codec"
)

func main() {
	c := codec.NewCl100kBase()
	var tokens []string
	for id := uint(0); ; id++ {
		t, err := c.Decode([]uint{id})
		if err != nil {
			break // the ranks are dense up to the special tokens
		}
		tokens = append(tokens, t)
	}
	const bits = 18
	slots := make([]uint32, 1<<bits)
	for id, t := range tokens {
		h := hash(t)
		for i := h & (1<<bits - 1); ; i = (i + 1) & (1<<bits - 1) {
			if slots[i] == 0 {
				slots[i] = uint32(h>>49)<<17 | uint32(id+1)
				break
			}
		}
	}
	out := []byte(magic)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(tokens)))
	out = binary.LittleEndian.AppendUint32(out, bits)
	off := uint32(0)
	for _, t := range tokens {
		out = binary.LittleEndian.AppendUint32(out, off)
		off += uint32(len(t))
	}
	out = binary.LittleEndian.AppendUint32(out, off)
	for _, s := range slots {
		out = binary.LittleEndian.AppendUint32(out, s)
	}
	for _, t := range tokens {
		out = append(out, t...)
	}
	if err := os.WriteFile("vocab.bin", out, 0o644); err != nil {
		log.Fatal(err)
	}
}

// magic and hash as cl100k.go has them.
const magic = "CL100K\x01\x00"

func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
