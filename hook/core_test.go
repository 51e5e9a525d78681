package hook_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/hook"
	"github.com/mneme-ai/mneme/sqlite"
)

// home is a real SQLite home and a repository folder (with .git) whose
// base name, shop-api, is the project.
func home(t testing.TB) (*hook.Core, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	t.Cleanup(func() { eng.Close() })
	repo := filepath.Join(t.TempDir(), "shop-api")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &hook.Core{Eng: eng, Home: dir, NoContext: true}, repo
}

// send parses one Claude Code event and handles it, as `mneme hook` does.
func send(t *testing.T, c *hook.Core, raw string) {
	t.Helper()
	a := hook.Adapters["claude-code"]
	ev, err := a.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Handle(context.Background(), a, ev); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}

func event(session, repo, name, extra string) string {
	return fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q%s}`, session, repo, name, extra)
}

// TestSummaryKeepsToItsSession: two sessions of one project interleave;
// each one's summary derives from its own episodes only (a summary of
// the project's time window mixed them).
func TestSummaryKeepsToItsSession(t *testing.T) {
	c, repo := home(t)
	words := map[string]string{"sa": "alpha", "sb": "bravo"}
	for _, s := range []string{"sa", "sb"} {
		send(t, c, event(s, repo, "SessionStart", ""))
	}
	for i := range 3 {
		for _, s := range []string{"sa", "sb"} {
			send(t, c, event(s, repo, "UserPromptSubmit", fmt.Sprintf(`,"prompt":"fix the %s widget step %d"`, words[s], i)))
			send(t, c, event(s, repo, "PostToolUse", fmt.Sprintf(`,"tool_name":"Bash","tool_input":{"command":"make %s-%d"},"tool_response":{"stdout":"ok"}`, words[s], i)))
		}
	}
	for _, s := range []string{"sa", "sb"} {
		send(t, c, event(s, repo, "SessionEnd", ""))
	}
	ctx := context.Background()
	recs, _, err := c.Eng.List(ctx, mneme.Filter{Project: "shop-api", Kinds: []string{"summary"}, Clearance: mneme.Secret}, 10, "")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, r := range recs {
		other := "bravo"
		if r.SessionID == "sb" {
			other = "alpha"
		}
		found[r.SessionID] = true
		if strings.Contains(r.Text, other) {
			t.Errorf("summary of %s mentions the other session: %q", r.SessionID, r.Text)
		}
		for _, l := range r.Links {
			src, err := c.Eng.Get(ctx, l.Target, mneme.Secret)
			if err != nil {
				t.Fatal(err)
			}
			if src.SessionID != r.SessionID {
				t.Errorf("summary of %q derives from %s of session %q", r.SessionID, src.ID, src.SessionID)
			}
		}
	}
	if !found["sa"] || !found["sb"] || len(recs) != 2 {
		t.Errorf("want one summary per session, got %d: %v", len(recs), slices.Collect(func(y func(string) bool) {
			for s := range found {
				y(s)
			}
		}))
	}
}
