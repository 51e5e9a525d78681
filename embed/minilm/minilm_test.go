package minilm

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// modelDir is where mneme looks for the model by default.
func modelDir(tb testing.TB) string {
	dir := DefaultDir(os.Getenv)
	for _, f := range []string{weightsFile, tokenizerFile, configFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			tb.Fatalf("model file missing (%v): run mneme model fetch (or ./scripts/fetch-model), or set MNEME_MODEL_DIR", err)
		}
	}
	return dir
}

var shared struct {
	once sync.Once
	m    *Model
	err  error
}

func testModel(tb testing.TB) *Model {
	dir := modelDir(tb)
	shared.once.Do(func() { shared.m, shared.err = Load(dir) })
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.m
}

type reference struct {
	Sentences  []string    `json:"sentences"`
	Embeddings [][]float64 `json:"embeddings"`
}

// loadReference reads the 300 reference embeddings from an independent
// implementation: external evaluation data beside the repository
// (../shared/bench), never copied into it. Their absence skips loudly,
// unless MNEME_MINILM_REF names the file (as .ci/run does when it exists):
// then it must be there.
func loadReference(tb testing.TB) *reference {
	path := os.Getenv("MNEME_MINILM_REF")
	required := path != ""
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "bench", "minilm-ref300.json")
	}
	data, err := os.ReadFile(path)
	if err != nil && required {
		tb.Fatalf("MNEME_MINILM_REF names %s, which cannot be read: %v", path, err)
	}
	if err != nil {
		skips.Skip(tb, "MNEME_MINILM_REF=path/to/minilm-ref300.json (in ../shared/bench)", "no reference embeddings: "+err.Error())
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		tb.Fatal(err)
	}
	if len(ref.Sentences) == 0 || len(ref.Sentences) != len(ref.Embeddings) {
		tb.Fatalf("%s: %d sentences, %d embeddings", path, len(ref.Sentences), len(ref.Embeddings))
	}
	return &ref
}

func maxDiff(tb testing.TB, got []float32, want []float64) float64 {
	if len(got) != len(want) {
		tb.Fatalf("dimension %d, want %d", len(got), len(want))
	}
	var d float64
	for j, v := range got {
		d = max(d, math.Abs(float64(v)-want[j]))
	}
	return d
}

func TestReference(t *testing.T) {
	m := testModel(t)
	ref := loadReference(t)
	const tol = 1e-5
	out := m.Embed(ref.Sentences)
	if len(out) != len(ref.Sentences) {
		t.Fatalf("%d embeddings for %d texts", len(out), len(ref.Sentences))
	}
	var worst float64
	for i, v := range out {
		d := maxDiff(t, v, ref.Embeddings[i])
		if d > tol {
			t.Errorf("sentence %d %q: max |diff| %.3g > %g", i, ref.Sentences[i], d, tol)
		}
		worst = max(worst, d)
	}
	t.Logf("batched: max |diff| over %d sentences = %.3g", len(out), worst)

	worst = 0
	for _, i := range []int{0, 1, 57, 150, len(out) - 1} {
		v := m.Embed(ref.Sentences[i : i+1])[0]
		d := maxDiff(t, v, ref.Embeddings[i])
		if d > tol {
			t.Errorf("sentence %d alone: max |diff| %.3g > %g", i, d, tol)
		}
		worst = max(worst, d)
	}
	t.Logf("one at a time: max |diff| = %.3g", worst)
}

// TestGolden pins a few values computed by this implementation (checked
// against the reference) so regressions show without the external file.
func TestGolden(t *testing.T) {
	m := testModel(t)
	texts := []string{"", "The quick brown fox jumps over the lazy dog.", "Où est la gare? 東京駅です。"}
	want := [][4]float64{
		{-0.1188130, 0.0483154, -0.0026573, -0.0109496},
		{0.0439584, 0.0589972, 0.0482299, 0.0776597},
		{0.0425146, -0.0026265, 0.0855701, -0.0334256},
	}
	out := m.Embed(texts)
	for i, v := range out {
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Errorf("%q: squared norm %v, want 1", texts[i], ss)
		}
		if d := maxDiff(t, v[:4], want[i][:]); d > 1e-5 {
			t.Errorf("%q: first values %v, want %v", texts[i], v[:4], want[i])
		}
	}
}

func TestConcurrentEmbed(t *testing.T) {
	m := testModel(t)
	texts := []string{"memory records store what an agent learns", "recall by meaning", strings.Repeat("long input ", 300)}
	want := m.Embed(texts)
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				got := m.Embed(texts)
				for i := range got {
					for j := range got[i] {
						if got[i][j] != want[i][j] {
							t.Errorf("text %d differs under concurrency", i)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if m.Dim() != 384 || m.MaxTokens() != 256 || len(m.Embed(nil)) != 0 {
		t.Error("Dim, MaxTokens or Embed(nil) wrong")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := modelDir(t)
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), configFile) {
		t.Errorf("empty dir: error %v should name %s", err, configFile)
	}
	// A copy with a truncated weights file and a corrupt tokenizer.
	for _, tc := range []struct{ file, content string }{
		{weightsFile, "truncated"},
		{tokenizerFile, "{"},
	} {
		tmp := t.TempDir()
		for _, f := range []string{weightsFile, tokenizerFile, configFile} {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == tc.file {
				data = data[:min(len(data), 100000)]
				if tc.content == "{" {
					data = []byte("{")
				}
			}
			if err := os.WriteFile(filepath.Join(tmp, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Load(tmp); err == nil || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("corrupt %s: error %v should name it", tc.file, err)
		}
	}
}

func TestF16(t *testing.T) {
	for _, tc := range []struct {
		h    uint16
		want float32
	}{
		{0x0000, 0},
		{0x3c00, 1},
		{0xc000, -2},
		{0x3555, 0.333251953125},
		{0x0001, float32(math.Ldexp(1, -24))},    // smallest subnormal
		{0x03ff, float32(math.Ldexp(1023, -24))}, // largest subnormal
		{0x8200, -float32(math.Ldexp(512, -24))}, // negative subnormal
		{0x0400, float32(math.Ldexp(1, -14))},    // smallest normal
		{0x7bff, 65504},                          // max
		{0xfbff, -65504},
	} {
		if got := f16ToF32(tc.h); got != tc.want {
			t.Errorf("f16ToF32(%#04x) = %v, want %v", tc.h, got, tc.want)
		}
	}
	if b := math.Float32bits(f16ToF32(0x8000)); b != 0x80000000 {
		t.Errorf("-0 converts to bits %#x", b)
	}
	if v := f16ToF32(0x7c00); !math.IsInf(float64(v), 1) {
		t.Errorf("+inf converts to %v", v)
	}
	if v := f16ToF32(0xfc00); !math.IsInf(float64(v), -1) {
		t.Errorf("-inf converts to %v", v)
	}
	for _, h := range []uint16{0x7e00, 0x7c01, 0xfe00, 0x7fff} {
		if v := f16ToF32(h); !math.IsNaN(float64(v)) {
			t.Errorf("NaN %#04x converts to %v", h, v)
		}
	}
	// Every finite half against its definition, through the parallel path.
	src := make([]byte, 2<<16)
	for h := range 1 << 16 {
		src[2*h], src[2*h+1] = byte(h), byte(h>>8)
	}
	dst := make([]float32, 1<<16)
	convertF16(dst, src)
	for h := range 1 << 16 {
		exp, mant := h>>10&0x1f, h&0x3ff
		if exp == 0x1f {
			continue
		}
		want := math.Ldexp(float64(mant), -24)
		if exp > 0 {
			want = math.Ldexp(float64(mant|0x400), exp-25)
		}
		if h&0x8000 != 0 {
			want = -want
		}
		if float64(dst[h]) != want {
			t.Fatalf("half %#04x: got %v, want %v", h, dst[h], want)
		}
	}
}

func TestGELU(t *testing.T) {
	var xs []float32
	for x := -12.0; x <= 12; x += 1.0 / 1024 / 3 {
		xs = append(xs, float32(x))
	}
	xs = append(xs, float32(math.NaN()), float32(math.Inf(1)))
	got := slices.Clone(xs)
	biasGELU(got, make([]float32, len(got)))
	var worst float64
	for i, x := range xs[:len(xs)-2] {
		want := 0.5 * float64(x) * math.Erfc(-float64(x)/math.Sqrt2)
		d := math.Abs(float64(got[i]) - want)
		// Allow float32 rounding of the result, plus 2e-9 absolute where
		// Φ is tiny (far below anything that reaches the embedding).
		if d > math.Abs(want)*7e-8+2e-9 {
			t.Fatalf("gelu(%v) = %v, want %v", x, got[i], want)
		}
		worst = max(worst, d)
	}
	if n := len(got); !math.IsNaN(float64(got[n-2])) || !math.IsInf(float64(got[n-1]), 1) {
		t.Errorf("gelu(NaN), gelu(+Inf) = %v, %v", got[n-2], got[n-1])
	}
	t.Logf("max |gelu error| %.3g (float32 rounding of large outputs included)", worst)
}

func TestExpNonPos(t *testing.T) {
	for x := -700.0; x <= 0; x += 0.00937 { // below, 0 stands for <1e-300
		for _, v := range []float64{x, -x * x / 1e6} {
			got, want := expNonPos(v), math.Exp(v)
			if math.Abs(got-want) > 2e-12*want {
				t.Fatalf("expNonPos(%v) = %v, want %v", v, got, want)
			}
		}
	}
	if expNonPos(0) != 1 || expNonPos(-1e6) != 0 || expNonPos(math.Inf(-1)) != 0 {
		t.Error("expNonPos edge cases")
	}
}
