package minilm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSafetensors: any file read as the weights file gives an error or a
// header whose tensors all lie inside the file; reading each tensor of a
// sane size (as its own shape) returns exactly its bytes, never panics, and
// loading the model from the file fails cleanly.
func FuzzSafetensors(f *testing.F) {
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "model.safetensors")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := openSafetensors(path, "fuzz")
		if err != nil {
			return
		}
		defer st.Close()
		for name, tn := range st.tensors {
			if tn.Offsets[0] < 0 || tn.Offsets[0] > tn.Offsets[1] || st.base+tn.Offsets[1] > int64(len(data)) {
				t.Fatalf("tensor %s: range %v outside the %d-byte file (data at %d)", name, tn.Offsets, len(data), st.base)
			}
			n := 2
			for _, d := range tn.Shape {
				if d < 0 || d > 1<<20 || n > 1<<24/max(d, 1) {
					n = -1
					break
				}
				n *= d
			}
			if n < 0 {
				continue // a shape no model asks for
			}
			b, err := st.raw(name, false, tn.Shape...)
			if err != nil {
				continue
			}
			if want := data[st.base+tn.Offsets[0] : st.base+tn.Offsets[1]]; len(b) != n || !bytes.Equal(b, want) {
				t.Fatalf("tensor %s: read %d bytes, want the %d of its range", name, len(b), len(want))
			}
			if tn.DType == "F16" {
				dst := make([]float32, n/2)
				if err := st.f32Into(dst, name, tn.Shape...); err != nil {
					t.Fatalf("tensor %s read once, not twice: %v", name, err)
				}
			}
		}
		if _, err := loadWeights(path); err == nil {
			t.Fatal("a fuzzed file loaded as the whole model")
		}
	})
}

// FuzzLoadTokenizer: any tokenizer.json loads or fails with an error; a
// loaded tokenizer encodes texts into [CLS] … [SEP] with ids inside its
// vocabulary and within the length asked for.
func FuzzLoadTokenizer(f *testing.F) {
	dir := f.TempDir()
	texts := []string{"", "Hello, World!", "Café 北京 ☃ na\u0308ive", "\x00\xff\ufffd", "unaffable ##ing [UNK]"}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		path := filepath.Join(dir, "tokenizer.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		tok, err := loadTokenizer(path, "fuzz")
		if err != nil {
			return
		}
		for _, s := range append(texts, text) {
			for _, limit := range []int{2, 5, maxTokens} {
				ids := tok.encode(s, limit)
				if len(ids) < 2 || len(ids) > limit || ids[0] != tok.cls || ids[len(ids)-1] != tok.sep {
					t.Fatalf("encode(%q, %d) = %v: bad framing or length", s, limit, ids)
				}
				for _, id := range ids {
					if id < 0 || int(id) >= tok.size {
						t.Fatalf("encode(%q) = %v: id %d outside the %d-piece vocabulary", s, ids, id, tok.size)
					}
				}
			}
		}
	})
}
