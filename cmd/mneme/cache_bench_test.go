package main_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
)

// BenchmarkCLIRecallCacheHit: a whole default (hybrid) `mneme recall`
// process whose result the cache holds, at 10,000 memories with the
// built-in model's vectors: start, open, look up, print, exit (the model
// is never loaded). The first recall of the query, outside the timing,
// puts it in the cache.
func BenchmarkCLIRecallCacheHit(b *testing.B) {
	home := vectorHome(b, 10_000)
	query := benchdata.New(2, 30_000).Query()
	run := func() (time.Duration, string) {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "recall", query, "--home", home, "--json")
		cmd.Stderr = &stderr
		t0 := time.Now()
		out, err := cmd.Output()
		took := time.Since(t0)
		if err != nil {
			b.Fatalf("%v: %s", err, stderr.Bytes())
		}
		var res struct {
			Cache map[string]string `json:"cache_status"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			b.Fatal(err)
		}
		return took, res.Cache["retrieval_result"]
	}
	run()
	var lat []time.Duration
	for b.Loop() {
		took, st := run()
		if st != "hit" {
			b.Fatalf("retrieval_result %q, want hit", st)
		}
		lat = append(lat, took)
	}
	benchdata.ReportPercentiles(b, lat)
}
