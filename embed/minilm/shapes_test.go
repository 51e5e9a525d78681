package minilm

import (
	"github.com/mneme-ai/mneme/internal/eval"
	"slices"
	"strings"
	"testing"
	"time"
)

// longTexts joins consecutive reference sentences until each text has at
// least 220 tokens (the tokenizer truncates at 256): the documents and
// ingest chunks of the long-text shape. tools/onnxbench builds the same
// texts by the same rule.
func longTexts(m *Model, sentences []string) []string {
	var out []string
	var cur []string
	for _, s := range sentences {
		cur = append(cur, s)
		if t := strings.Join(cur, " "); len(m.Tokenize(t)) >= 220 {
			out = append(out, t)
			cur = cur[:0]
		}
	}
	return out
}

// queryText is the single-query shape: 10 words, 13 tokens.
const queryText = "how did we decide where to store the model weights"

// BenchmarkShapes measures the three shapes of issue 30 (run with -cpu 1,2):
// short texts (the 300 reference sentences, 10-30 words, batches of up to
// 64), long texts (220-256 tokens) and one query (batch 1).
func BenchmarkShapes(b *testing.B) { benchShapes(b, testModel(b)) }

// BenchmarkShapesInt8 is BenchmarkShapes on the int8 model.
func BenchmarkShapesInt8(b *testing.B) { benchShapes(b, testModel(b).Int8()) }

func benchShapes(b *testing.B, m *Model) {
	ref := loadReference(b)
	long := longTexts(m, ref.Sentences)
	b.Run("short", func(b *testing.B) {
		m.Embed(ref.Sentences[:10])
		t0 := eval.CPUTime().Seconds()
		for b.Loop() {
			for i := 0; i < len(ref.Sentences); i += 64 {
				m.Embed(ref.Sentences[i:min(i+64, len(ref.Sentences))])
			}
		}
		b.ReportMetric(float64(b.N*len(ref.Sentences))/b.Elapsed().Seconds(), "texts/s")
		b.ReportMetric(float64(b.N*len(ref.Sentences))/(eval.CPUTime().Seconds()-t0), "texts/cpu-s")
	})
	b.Run("long", func(b *testing.B) {
		m.Embed(long[:1])
		t0 := eval.CPUTime().Seconds()
		for b.Loop() {
			m.Embed(long)
		}
		b.ReportMetric(float64(b.N*len(long))/b.Elapsed().Seconds(), "texts/s")
		b.ReportMetric(float64(b.N*len(long))/(eval.CPUTime().Seconds()-t0), "texts/cpu-s")
	})
	b.Run("query", func(b *testing.B) {
		q := []string{queryText}
		m.Embed(q)
		b.ReportAllocs()
		lat := make([]float64, 0, b.N)
		t0 := eval.CPUTime().Seconds()
		for b.Loop() {
			start := time.Now()
			m.Embed(q)
			lat = append(lat, float64(time.Since(start).Nanoseconds())/1e6)
		}
		b.ReportMetric((eval.CPUTime().Seconds()-t0)*1e3/float64(b.N), "cpu-ms/op")
		slices.Sort(lat)
		b.ReportMetric(lat[len(lat)/2], "p50-ms")
	})
}
