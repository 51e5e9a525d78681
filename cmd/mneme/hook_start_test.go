package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookStartShowsRemembered: what a person remembers for the project
// (--project named as the repository's directory) starts the agent's
// sessions there, as the README's first session says, though it shares no
// word with the session-start query: in the first session, and after a
// whole recorded session has filled the project with operational memory.
// Another project's memory stays out. The default embedder: the hook
// builds the package from words.
func TestHookStartShowsRemembered(t *testing.T) {
	home, repo := t.TempDir(), filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	ok(t, home, "remember", "We deploy on Tuesdays after the CAB review", "--project", "shop")
	ok(t, home, "remember", "Ada prefers small PRs, under 300 lines", "--project", "shop")
	ok(t, home, "remember", "Billing closes on Fridays", "--project", "other")
	events := fixture(t, "claude-code", repo)
	check := func(when, out string) {
		t.Helper()
		checkInjection(t, "claude-code", out)
		for _, want := range []string{"We deploy on Tuesdays after the CAB review", "Ada prefers small PRs"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the session starts without %q: %s", when, want, out)
			}
		}
		if strings.Contains(out, "Billing") {
			t.Errorf("%s: another project's memory: %s", when, out)
		}
	}
	check("first session", hookRun(t, home, "claude-code", events[0]))
	for _, ev := range events[1:] {
		hookRun(t, home, "claude-code", ev)
	}
	check("next session", hookRun(t, home, "claude-code", strings.ReplaceAll(events[0], "cc-7f3a", "cc-next")))
}
