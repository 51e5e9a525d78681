package hnsw

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

// FuzzRoundTrip builds an index from fuzzed vectors and deletions, encodes
// it and decodes the bytes: the decoded index has the same size and answers
// the same searches (plain and filtered) as the original, and keeps doing
// so after the same writes to both.
func FuzzRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, dim uint8, m uint8, data []byte) {
		d := 1 + int(dim%24)
		ix := New(Config{Dim: d, M: 2 + int(m%8), EfConstruction: 16, Seed: uint64(m)})
		var vecs [][]float32
		for i := 0; (i+1)*d <= len(data) && i < 300; i++ {
			v := make([]float32, d)
			var n float64
			for j := range v {
				v[j] = float32(int8(data[i*d+j]))
				n += float64(v[j]) * float64(v[j])
			}
			if n == 0 {
				v[0], n = 1, 1
			}
			for j := range v {
				v[j] /= float32(math.Sqrt(n))
			}
			key := int64(data[i*d]) % 97
			if err := ix.Add(key, v); err != nil {
				t.Fatalf("add: %v", err)
			}
			if data[i*d]%5 == 0 {
				ix.Delete(int64(data[i*d+d-1]) % 97)
			}
			vecs = append(vecs, v)
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
		same := func(label string) {
			t.Helper()
			for _, q := range vecs[:min(len(vecs), 8)] {
				for _, acc := range []func(int64) bool{nil, func(k int64) bool { return k%3 == 0 }} {
					if a, b := ix.Search(q, 5, acc), dx.Search(q, 5, acc); !slices.Equal(a, b) {
						t.Fatalf("%s: search differs:\n%v\n%v", label, a, b)
					}
				}
			}
		}
		same("decoded")
		if len(vecs) > 0 {
			for _, x := range []*Index{ix, dx} {
				if err := x.Add(1000, vecs[0]); err != nil {
					t.Fatal(err)
				}
				x.Delete(int64(len(vecs) % 97))
			}
			same("written after decoding")
		}
	})
}
