package minilm

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// peakRSSMB reads the process's peak resident set (VmHWM) in MB.
func peakRSSMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkEmbedSentences embeds the 300 reference sentences (10–30 words)
// per iteration.
func BenchmarkEmbedSentences(b *testing.B) {
	m := testModel(b)
	ref := loadReference(b)
	m.Embed(ref.Sentences[:10]) // warm the workspace pool
	b.ResetTimer()
	for b.Loop() {
		m.Embed(ref.Sentences)
	}
	b.ReportMetric(float64(b.N*len(ref.Sentences))/b.Elapsed().Seconds(), "sentences/s")
	rss := peakRSSMB()
	b.ReportMetric(rss, "peak-RSS-MB")
	b.Logf("peak RSS (VmHWM) %.0f MB", rss)
}

func BenchmarkEmbedQuery(b *testing.B) {
	m := testModel(b)
	q := []string{"how did we decide to store the embedding model weights"}
	m.Embed(q)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Embed(q)
	}
}

// BenchmarkLoad: loading through the load cache (every start after the
// first) and from the model files (the first start).
func BenchmarkLoad(b *testing.B) {
	dir := modelDir(b)
	Load(dir) // make sure the cache exists
	for _, c := range []struct {
		name string
		load func(string) (*Model, error)
	}{{"cache", Load}, {"files", loadFiles}, {"bytes", loadFromBytes}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.load(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// loadFromBytes reads the three files, then loads them as the embedded
// model is loaded (the reading is not the embedded model's cost, so it is
// done once).
var loadFromBytes = func() func(string) (*Model, error) {
	var c, t, w []byte
	return func(dir string) (*Model, error) {
		if w == nil {
			c, _ = os.ReadFile(filepath.Join(dir, configFile))
			t, _ = os.ReadFile(filepath.Join(dir, tokenizerFile))
			w, _ = os.ReadFile(filepath.Join(dir, weightsFile))
		}
		return LoadBytes(c, t, w)
	}
}()
