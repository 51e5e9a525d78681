package main_test

import (
	"os/exec"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
)

// BenchmarkDoctorJSON: one `mneme doctor --json` process on a healthy
// home of 10,000 memories (no embedder: every lane it needs ready), wall
// time including process start. Budget (issue 26): median ≤ 200 ms.
func BenchmarkDoctorJSON(b *testing.B) {
	home := importHome(b, 10_000)
	run := func() time.Duration {
		t0 := time.Now()
		if out, err := exec.Command(bin, "doctor", "--json", "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
			b.Fatalf("doctor: %v: %s", err, out)
		}
		return time.Since(t0)
	}
	run() // the first run writes nothing, but warms the page cache
	var lat []time.Duration
	for b.Loop() {
		lat = append(lat, run())
	}
	benchdata.ReportPercentiles(b, lat)
}
