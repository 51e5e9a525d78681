package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hookProcess runs one `mneme hook HOST` process on event and returns its
// wall time, process start included.
func hookProcess(b *testing.B, home, host, event string) (time.Duration, string) {
	took, _, out := hookTimed(b, home, host, event)
	return took, out
}

// hookTimed is hookProcess with the process's CPU time (user and system),
// which a shared machine's load does not inflate as it does wall time.
func hookTimed(b *testing.B, home, host, event string) (wall, cpu time.Duration, out string) {
	cmd := exec.Command(bin, "hook", host, "--home", home)
	cmd.Stdin = strings.NewReader(event)
	t0 := time.Now()
	o, err := cmd.Output()
	wall = time.Since(t0)
	if err != nil {
		b.Fatalf("hook: %v", err)
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), string(o)
}

// reportP50P95 reports the budgets' percentiles (the are p50 and
// p95), in milliseconds; prefix names the measure.
func reportP50P95(b *testing.B, lat []time.Duration, prefix ...string) {
	slices.Sort(lat)
	at := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	name := strings.Join(prefix, "")
	b.ReportMetric(at(0.50), name+"p50-ms")
	b.ReportMetric(at(0.95), name+"p95-ms")
}

// BenchmarkHookToolCall: one `mneme hook claude-code` process per
// PostToolUse event (a new call each), against a home of 10,000 records:
// start, read the event, open the home, write the tool call, exit.
func BenchmarkHookToolCall(b *testing.B) {
	home := importHome(b, 10_000)
	repo := filepath.Join(b.TempDir(), "p0")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	var lat, cpu []time.Duration
	i := 0
	for b.Loop() {
		i++
		ev := fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./pkg%d/"},"tool_response":{"stdout":"ok pkg%d 0.%03ds"}}`, repo, i, i, i%1000)
		took, c, _ := hookTimed(b, home, "claude-code", ev)
		lat, cpu = append(lat, took), append(cpu, c)
	}
	reportP50P95(b, lat)
	reportP50P95(b, cpu, "cpu-")
}

// BenchmarkHookSessionStart: one `mneme hook claude-code` process per
// SessionStart (a new session each) in a home of 100,000 records, half of
// them in the project: start, open, build the 1,500-token package (or find
// it cached), write the session record, print. Two measures, interleaved:
// a start right after a start (p50/p95), and a start after a session
// that captured a prompt, a tool call and its end (after-session-), which
// builds the package afresh; wall time and the process's CPU time (cpu-).
func BenchmarkHookSessionStart(b *testing.B) {
	home := importHome(b, 100_000)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"hooks":{"project":"p0"}}`), 0o600)
	// Memories the session-start query matches, so the package fills.
	var notes strings.Builder
	for i := range 300 {
		fmt.Fprintf(&notes, `{"id":"0192f0c1-6b0e-7c3a-9d2e-%012x","project":"p0","type":"semantic","text":"Decision %d: we build and test with make ci; conventions for errors and fixes are in docs/%d.md","tags":[],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","status":"active","sensitivity":"internal"}`+"\n", i, i, i)
	}
	f := filepath.Join(b.TempDir(), "notes.jsonl")
	os.WriteFile(f, []byte(notes.String()), 0o644)
	if out, err := exec.Command(bin, "import", f, "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	repo := b.TempDir()
	var lat, cpu, afterLat, afterCPU []time.Duration
	empty := 0
	i := 0
	for b.Loop() {
		i++
		// A start right after a start: the package is carried over the
		// session record the last one wrote.
		ev := fmt.Sprintf(`{"session_id":"s%d","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, i, repo)
		wall, c, out := hookTimed(b, home, "claude-code", ev)
		lat, cpu = append(lat, wall), append(cpu, c)
		if out == "" {
			empty++
		}
		// A start after a session captured something (a prompt, tool
		// calls, its end and summary): the package is built afresh.
		for _, e := range []string{`"hook_event_name":"UserPromptSubmit","prompt":"fix the flaky test %d"`,
			`"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./pkg%d/"},"tool_response":{"stdout":"ok"}`,
			`"hook_event_name":"SessionEnd","reason":"other"`} {
			hookTimed(b, home, "claude-code", fmt.Sprintf(`{"session_id":"s%d","cwd":%q,`+strings.Replace(e, "%d", fmt.Sprint(i), 1)+`}`, i, repo))
		}
		wall, c, out = hookTimed(b, home, "claude-code", fmt.Sprintf(`{"session_id":"a%d","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, i, repo))
		afterLat, afterCPU = append(afterLat, wall), append(afterCPU, c)
		if out == "" {
			empty++
		}
	}
	if empty > 0 {
		b.Fatalf("%d session starts printed no package", empty)
	}
	reportP50P95(b, lat)
	reportP50P95(b, cpu, "cpu-")
	reportP50P95(b, afterLat, "after-session-")
	reportP50P95(b, afterCPU, "after-session-cpu-")
}
