package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
)

// BenchmarkCLIRemember: one `mneme remember` of a short record, process
// start included, on a home that already holds memories: without vectors,
// and with the built-in model (load and embedding included).
func BenchmarkCLIRemember(b *testing.B) {
	for _, embedder := range []string{"none", "minilm"} {
		b.Run("embedder="+embedder, func(b *testing.B) {
			home := b.TempDir()
			exec.Command(bin, "remember", "warm up", "--home", home, "--embedder", embedder).Run()
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				out, err := exec.Command(bin, "remember", fmt.Sprintf("short memory number %d about the build", i), "--home", home, "--embedder", embedder).CombinedOutput()
				if err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				lat = append(lat, time.Since(t0))
			}
			benchdata.ReportPercentiles(b, lat)
		})
	}
}

// writeCorpus writes n synthetic records as JSON lines.
func writeCorpus(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "corpus.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	c := benchdata.New(1, 30_000)
	for i := range n {
		enc.Encode(c.Record(i))
	}
	w.Flush()
	f.Close()
	return path
}

// BenchmarkCLIImport: `mneme import` of 20,000 short records into a new home.
func BenchmarkCLIImport(b *testing.B) {
	const n = 20_000
	corpus := writeCorpus(b, n)
	for b.Loop() {
		home := filepath.Join(b.TempDir(), "home")
		if out, err := exec.Command(bin, "import", corpus, "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkCLIRecallCold: a whole `mneme recall` process against a home of
// 100,000 records: start, open, query, print, exit.
func BenchmarkCLIRecallCold(b *testing.B) {
	home := filepath.Join(b.TempDir(), "home")
	if out, err := exec.Command(bin, "import", writeCorpus(b, 100_000), "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	c := benchdata.New(2, 30_000)
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if out, err := exec.Command(bin, "recall", c.Query(), "--home", home, "--json").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		lat = append(lat, time.Since(t0))
	}
	benchdata.ReportPercentiles(b, lat)
}
