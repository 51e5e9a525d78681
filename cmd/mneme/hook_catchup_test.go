package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookCaptureFoundAfterSnapshot: what a session captures is found by
// the next lexical recall and the next session start, in a home whose word
// index was saved to disk before the session (each later process loads
// that snapshot and catches up on the records written since, without a
// key map of every record).
func TestHookCaptureFoundAfterSnapshot(t *testing.T) {
	home, repo := t.TempDir(), filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var corpus strings.Builder
	for i := range 1500 { // enough changes that the import saves the snapshot
		fmt.Fprintf(&corpus, `{"project":"shop","type":"semantic","text":"note %d about builds and releases"}`+"\n", i)
	}
	f := filepath.Join(t.TempDir(), "notes.jsonl")
	os.WriteFile(f, []byte(corpus.String()), 0o644)
	ok(t, home, "import", f, "--embedder", "none")
	if _, err := os.Stat(filepath.Join(home, "lexical.idx")); err != nil {
		t.Fatalf("no word index snapshot after the import: %v", err)
	}
	ev := func(session, rest string) string {
		return fmt.Sprintf(`{"session_id":%q,"cwd":%q,%s}`, session, repo, rest)
	}
	hookRun(t, home, "claude-code", ev("s1", `"hook_event_name":"SessionStart","source":"startup"`))
	hookRun(t, home, "claude-code", ev("s1", `"hook_event_name":"UserPromptSubmit","prompt":"why does the quokkaflake test fail on Mondays"`))
	hookRun(t, home, "claude-code", ev("s1", `"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./zebrafish/"},"tool_response":{"stdout":"ok"}`))
	hookRun(t, home, "claude-code", ev("s1", `"hook_event_name":"SessionEnd","reason":"other"`))
	for _, word := range []string{"quokkaflake", "zebrafish"} {
		out := ok(t, home, "recall", word, "--mode", "lexical", "--project", "shop", "--json")
		if !strings.Contains(out, word) {
			t.Fatalf("recall %s after the session: %s", word, out)
		}
	}
	// The next session start catches up (nothing cached covers the
	// capture), and a recall after it still finds the prompt.
	hookRun(t, home, "claude-code", ev("s2", `"hook_event_name":"SessionStart","source":"startup"`))
	if out := ok(t, home, "recall", "quokkaflake Mondays", "--mode", "lexical", "--project", "shop", "--json"); !strings.Contains(out, "quokkaflake") {
		t.Fatalf("recall after the next start: %s", out)
	}
}
