package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkZZProf: profiles of starts after a captured session.
func BenchmarkZZProf(b *testing.B) {
	home := os.Getenv("ZZ_HOME")
	if _, err := os.Stat(filepath.Join(home, "mneme.db")); err != nil {
		home = importHome(b, 100_000)
		os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"hooks":{"project":"p0"}}`), 0o600)
		var notes strings.Builder
		for i := range 300 {
			fmt.Fprintf(&notes, `{"id":"0192f0c1-6b0e-7c3a-9d2e-%012x","project":"p0","type":"semantic","text":"Decision %d: we build and test with make ci; conventions for errors and fixes are in docs/%d.md","tags":[],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","status":"active","sensitivity":"internal"}`+"\n", i, i, i)
		}
		f := filepath.Join(b.TempDir(), "notes.jsonl")
		os.WriteFile(f, []byte(notes.String()), 0o644)
		if out, err := exec.Command(bin, "import", f, "--home", home, "--embedder", "none").CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		if dst := os.Getenv("ZZ_HOME"); dst != "" {
			exec.Command("cp", "-a", home+"/.", dst).Run()
		}
	}
	repo := b.TempDir()
	prof := os.Getenv("ZZ_PROF")
	i := 0
	for b.Loop() {
		i++
		for _, e := range []string{`"hook_event_name":"SessionStart","source":"startup"`, `"hook_event_name":"UserPromptSubmit","prompt":"fix the flaky test %d"`,
			`"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./pkg%d/"},"tool_response":{"stdout":"ok"}`,
			`"hook_event_name":"SessionEnd","reason":"other"`} {
			hookTimed(b, home, "claude-code", fmt.Sprintf(`{"session_id":"s%d","cwd":%q,`+strings.Replace(e, "%d", fmt.Sprint(i), 1)+`}`, i, repo))
		}
		cmd := exec.Command(bin, "hook", "claude-code", "--home", home)
		cmd.Env = append(os.Environ(), "MNEME_CPUPROFILE="+prof)
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":"a%d","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, i, repo))
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}
