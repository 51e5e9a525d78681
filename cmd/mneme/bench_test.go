package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/sqlite"
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

// importHome makes a new home of n synthetic records by `mneme import`,
// without vectors.
func importHome(b *testing.B, n int) string {
	home := filepath.Join(b.TempDir(), "home")
	if out, err := exec.Command(bin, "import", writeCorpus(b, n), "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	return home
}

// vectorHome makes a home of n synthetic records with the built-in model
// as its embedder and a synthetic clustered vector for every record, as if
// the model had embedded them, so setup need not embed every text.
// Closing the store saves both index snapshots, so recall
// starts from them as it would after a real import.
func vectorHome(b *testing.B, n int) string {
	info := benchdata.MiniLM(b).Info()
	home := importHome(b, n)
	ctx := context.Background()
	s, err := sqlite.Open(ctx, home)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := benchdata.AddVectors(ctx, s, info, benchdata.NewVectors(1, info.Dim, 256)); err != nil {
		s.Close()
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, sqlite.VectorFile)); err != nil {
		recallProcess(b, home, "how do we build the vector index") // builds and saves it
	}
	for _, f := range []string{sqlite.IndexFile, sqlite.VectorFile} {
		if _, err := os.Stat(filepath.Join(home, f)); err != nil {
			b.Fatalf("no index snapshot after setup: %v", err)
		}
	}
	return home
}

// recallProcess runs one `mneme recall QUERY --home home --json` with the
// extra args and returns its wall time and peak resident set in KB. A
// failure, or a result without its vector lane, fails b.
func recallProcess(b *testing.B, home, query string, args ...string) (time.Duration, int64) {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, append([]string{"recall", query, "--home", home, "--json"}, args...)...)
	cmd.Stderr = &stderr
	t0 := time.Now()
	out, err := cmd.Output()
	took := time.Since(t0)
	if err != nil {
		b.Fatalf("%v: %s", err, stderr.Bytes())
	}
	var res struct {
		Degraded       bool   `json:"degraded"`
		DegradedReason string `json:"degraded_reason"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("recall output %q: %v", out, err)
	}
	if res.Degraded {
		b.Fatalf("degraded recall: %s", res.DegradedReason)
	}
	return took, maxRSS(cmd.ProcessState)
}

// maxRSS is an exited process's peak resident set as the system reports it
// (rusage Maxrss: KB on Linux), 0 where it reports none. Reflection keeps
// this file free of the Unix-only syscall.Rusage.
func maxRSS(ps *os.ProcessState) int64 {
	v := reflect.ValueOf(ps.SysUsage())
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return 0
	}
	if f := v.Elem().FieldByName("Maxrss"); f.IsValid() && f.CanInt() {
		return f.Int()
	}
	return 0
}

// timeRecallProcesses times whole recall processes on home, a new query
// each, and reports the latency percentiles and the largest peak resident
// set of any of them (maxrss-MB), once this process has dropped its own
// peak from building the home.
func timeRecallProcesses(b *testing.B, home string, args ...string) {
	if err := benchdata.ResetPeakRSS(); err != nil {
		b.Logf("maxrss-MB is at least this process's own peak: %v", err)
	}
	c := benchdata.New(2, 30_000)
	var lat []time.Duration
	var peak int64
	for b.Loop() {
		took, rss := recallProcess(b, home, c.Query(), args...)
		lat, peak = append(lat, took), max(peak, rss)
	}
	benchdata.ReportPercentiles(b, lat)
	b.ReportMetric(float64(peak)/1024, "maxrss-MB")
}

// BenchmarkCLIRecallCold: a whole lexical `mneme recall` process against a
// home of 100,000 records: start, open, query, print, exit.
func BenchmarkCLIRecallCold(b *testing.B) {
	timeRecallProcesses(b, importHome(b, 100_000), "--mode", "lexical")
}

// BenchmarkCLIRecallHybridCold: a whole default (hybrid) `mneme recall`
// process with the built-in model: start, open both index snapshots, load
// the model, embed the query, search, print, exit; at 10,000 and 100,000
// records, reporting the process's peak resident set.
func BenchmarkCLIRecallHybridCold(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			timeRecallProcesses(b, vectorHome(b, n))
		})
	}
}

// BenchmarkCLIImportTurns: `mneme import` of 10,000 conversation turns of
// 45 words with the built-in model (issue 30's budget: ≤ 60 s on two
// cores), so the import runs at the model's rate. The turns are real
// English from LoCoMo dev (benchdata.Turns; MNEME_LOCOMO names the file),
// ~60 tokens each.
func BenchmarkCLIImportTurns(b *testing.B) {
	const n = 10_000
	benchdata.MiniLM(b) // the model must be installed
	path := filepath.Join(b.TempDir(), "turns.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	c := benchdata.New(2, 30_000)
	for i, text := range benchdata.Turns(b, benchdata.LoCoMoPath(2), n, 45) {
		r := c.Record(i)
		r.Text = text
		enc.Encode(r)
	}
	w.Flush()
	f.Close()
	var cpu time.Duration
	for b.Loop() {
		home := filepath.Join(b.TempDir(), "home")
		cmd := exec.Command(bin, "import", path, "--home", home, "--embedder", "minilm")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/import")
	// CPU seconds over two cores: the wall time a quiet machine would take.
	b.ReportMetric(cpu.Seconds()/2/float64(b.N), "cpu-s/2/import")
}
