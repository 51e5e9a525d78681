package cl100k

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// TestVocabularyIsTheCodecs: every token of the codec's vocabulary is in
// vocab.bin with its rank, and nothing else is (a stale vocab.bin fails
// here: run go generate).
func TestVocabularyIsTheCodecs(t *testing.T) {
	c, tab := codec.NewCl100kBase(), table()
	for id := 0; id < tab.n; id++ {
		tok, err := c.Decode([]uint{uint(id)})
		if err != nil {
			t.Fatalf("rank %d: the codec has no token (%v)", id, err)
		}
		if r, ok := tab.rank(tok); !ok || int(r) != id {
			t.Fatalf("token %q: rank %d (%v), the codec's %d", tok, r, ok, id)
		}
	}
	if _, err := c.Decode([]uint{uint(tab.n)}); err == nil {
		t.Fatalf("the codec has a token of rank %d, past vocab.bin's", tab.n)
	}
	for _, s := range []string{"", "zzqqxxj unlikely", "\xff\xfe", strings.Repeat("a", 300)} {
		if _, ok := tab.rank(s); ok {
			t.Fatalf("%q has a rank", s)
		}
	}
}

// corpus is text to count: the repository's docs and a few hard cases.
func corpus(t testing.TB) []string {
	out := []string{"", " ", "hello world", "<|endoftext|> special text", "naïve café — 日本語のテキスト 🙂🙂",
		"\xff\xfe invalid \xc3", "a\r\n\r\n  b\t\tc   ", "'s 'T 'Re 123456789 x1y2", strings.Repeat("ab", 200),
		strings.Repeat("z", 5000), strings.Repeat("🙂", 100), "func main() {\n\tfmt.Println(\"hi\")\n}\n"}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestCountIsTheCodecs: Count equals the codec's count.
func TestCountIsTheCodecs(t *testing.T) {
	c := codec.NewCl100kBase()
	for _, s := range corpus(t) {
		got, err := Count(s)
		want, werr := c.Count(s)
		if err != nil || werr != nil || got != want {
			t.Fatalf("%.60q: %d (%v), the codec %d (%v)", s, got, err, want, werr)
		}
	}
}

// FuzzCount: Count equals the codec's count on any input.
func FuzzCount(f *testing.F) {
	for _, s := range corpus(f)[:12] {
		f.Add(s)
	}
	c := codec.NewCl100kBase()
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Count(s)
		want, werr := c.Count(s)
		if (err == nil) != (werr == nil) || got != want {
			t.Fatalf("%q: %d (%v), the codec %d (%v)", s, got, err, want, werr)
		}
	})
}

// BenchmarkCount: Count against the codec's Count on the docs, per pass
// over them (the codec's vocabulary built before timing).
func BenchmarkCount(b *testing.B) {
	c, texts := codec.NewCl100kBase(), corpus(b)
	for _, impl := range []struct {
		name  string
		count func(string) (int, error)
	}{{"table", Count}, {"codec", c.Count}} {
		b.Run(impl.name, func(b *testing.B) {
			for b.Loop() {
				for _, s := range texts {
					impl.count(s)
				}
			}
		})
	}
}
