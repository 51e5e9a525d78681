package main_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/skips"
)

// BenchmarkMCPRecallStdio: one recall tool call, round trip, to a warm
// `mneme mcp` process over stdio (the official Go SDK client), at 10,000
// memories with vectors, hybrid, query embedding included.
func BenchmarkMCPRecallStdio(b *testing.B) {
	home := vectorHome(b, 10_000)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--home", home)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer session.Close()
	c := benchdata.New(2, 30_000)
	call := func() time.Duration {
		t0 := time.Now()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": c.Query(), "k": 10}})
		if err != nil || res.IsError {
			b.Fatalf("recall: %v %+v", err, res)
		}
		return time.Since(t0)
	}
	for range 5 { // warm: indexes mapped, model loaded
		call()
	}
	var lat []time.Duration
	for b.Loop() {
		lat = append(lat, call())
	}
	benchdata.ReportPercentiles(b, lat)
}

// BenchmarkHTTPRecallThroughput: POST /v1/recall (hybrid, a new query each)
// from 8 concurrent clients against a warm `mneme serve` at 10,000
// memories; reports requests per second.
func BenchmarkHTTPRecallThroughput(b *testing.B) {
	s := serve(b, vectorHome(b, 10_000))
	const workers = 8
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = workers // keep-alive for every worker
	bodies := make([]string, 2000)
	c := benchdata.New(2, 30_000)
	for i := range bodies {
		bodies[i] = fmt.Sprintf(`{"query":%q,"k":10}`, c.Query())
	}
	post := func(i int) time.Duration {
		t0 := time.Now()
		var out struct{ Degraded bool }
		if code := httpJSON(b, "POST", s.url+"/v1/recall", bodies[i%len(bodies)], &out); code != 200 || out.Degraded {
			b.Fatalf("recall: HTTP %d, degraded %v", code, out.Degraded)
		}
		return time.Since(t0)
	}
	for i := range 20 {
		post(i)
	}
	n := 0
	start := time.Now()
	for b.Loop() {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < 400; i += workers {
					post(n + i)
				}
			})
		}
		wg.Wait()
		n += 400
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkServeRSS: the peak resident set of a `mneme serve` process at
// 100,000 memories after 200 hybrid recalls.
func BenchmarkServeRSS(b *testing.B) {
	s := serve(b, vectorHome(b, 100_000))
	c := benchdata.New(2, 30_000)
	for b.Loop() {
		for range 200 {
			var out struct{ Hits []any }
			if code := httpJSON(b, "POST", s.url+"/v1/recall", fmt.Sprintf(`{"query":%q}`, c.Query()), &out); code != 200 {
				b.Fatalf("recall: HTTP %d", code)
			}
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		skips.Skip(b, "", "no /proc here: "+err.Error())
	}
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && (f[0] == "VmHWM:" || f[0] == "VmRSS:") {
			kb, _ := strconv.ParseFloat(f[1], 64)
			b.ReportMetric(kb/1024, strings.TrimSuffix(f[0], ":")+"-MB")
		}
	}
}
