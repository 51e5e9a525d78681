package bm25

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// FuzzRoundTrip builds an index from fuzzed documents (text split on "|",
// attributes and deletions chosen by ops), encodes it, decodes the bytes
// and checks that the decoded index has the same documents and answers
// every query (each word of the input, with and without a filter) exactly
// as the original; a write to both afterwards keeps them equal.
func FuzzRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		ix := New()
		parts := strings.Split(text, "|")
		if len(parts) > 64 {
			parts = parts[:64]
		}
		projects := []string{"p", "q", ""}
		for i, p := range parts {
			op := byte(i)
			if i < len(ops) {
				op = ops[i]
			}
			title, body, _ := strings.Cut(p, "\n")
			ix.Put(Doc{Key: int64(op % 16), Title: title, Text: body, Context: strings.Repeat(title, int(op%2)),
				Attrs: Attrs{Project: projects[op%3], Type: "semantic", Status: "active", Tags: strings.Fields(title)[:min(2, len(strings.Fields(title)))],
					Event: int64(op) << 20, Expires: int64(op%4) << 40}})
			if op&0x80 != 0 {
				ix.Delete(int64(op % 7))
			}
		}
		var buf bytes.Buffer
		if _, err := ix.WriteTo(&buf); err != nil {
			t.Fatalf("encode: %v", err)
		}
		dx, err := Decode(aligned(buf.Bytes()))
		if err != nil {
			t.Fatalf("decode of an encoded index: %v", err)
		}
		if dx.Len() != ix.Len() {
			t.Fatalf("Len %d, want %d", dx.Len(), ix.Len())
		}
		words := textnorm.Words(text)
		if len(words) > 20 {
			words = words[:20]
		}
		same := func(label string) {
			t.Helper()
			for _, w := range append(words, "") {
				for _, flt := range []Filter{{}, {Project: "p"}, {Tags: words[:min(1, len(words))], Since: 1 << 20, Now: 1 << 40}} {
					q := Query{Terms: []string{w}, K: 5, Filter: flt}
					if w == "" {
						q.Terms = words
					}
					if a, b := ix.Search(q), dx.Search(q); !reflect.DeepEqual(a, b) {
						t.Fatalf("%s: %+v: original %v, decoded %v", label, q, a, b)
					}
				}
			}
		}
		same("decoded")
		for _, x := range []*Index{ix, dx} {
			x.Put(Doc{Key: 3, Title: "added after", Text: text, Attrs: Attrs{Project: "p", Tags: []string{"x"}}})
			x.Delete(5)
		}
		same("written after decoding")
	})
}
