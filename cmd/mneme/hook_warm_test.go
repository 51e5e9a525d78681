package main_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// largeHome is a home of n facts of project shop imported without
// vectors, and the repository of that project.
func largeHome(t *testing.T, n int) (home, repo string) {
	home, repo = t.TempDir(), filepath.Join(t.TempDir(), "shop")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var corpus strings.Builder
	for i := range n {
		fmt.Fprintf(&corpus, `{"project":"shop","type":"semantic","text":"decision %d: we build and test with make ci"}`+"\n", i)
	}
	f := filepath.Join(t.TempDir(), "notes.jsonl")
	os.WriteFile(f, []byte(corpus.String()), 0o644)
	ok(t, home, "import", f, "--embedder", "none")
	return home, repo
}

// TestHookLeavesAColdIndexToABackgroundWarmUp: in a home of more records
// than a hook indexes on the host's time, with no usable word-index
// snapshot (as after an upgrade that changes its format), a tool call's
// hook does not rebuild the index when it closes, and a session start
// serves no package and starts `mneme sync --indexes` in a process of its
// own, which saves the snapshot; the next session start serves the
// package. Before, the start ran into its deadline saving nothing, and
// the next tool call rebuilt the index on the host's time.
func TestHookLeavesAColdIndexToABackgroundWarmUp(t *testing.T) {
	home, repo := largeHome(t, 10_050) // over hook.DefaultMaxBacklog
	snap := filepath.Join(home, "lexical.idx")
	if err := os.WriteFile(snap, []byte("an index of an older format"), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := func(session, rest string) string {
		return fmt.Sprintf(`{"session_id":%q,"cwd":%q,%s}`, session, repo, rest)
	}
	hookRun(t, home, "claude-code", ev("s1", `"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make ci"},"tool_response":{"stdout":"ok"}`))
	if b, _ := os.ReadFile(snap); string(b) != "an index of an older format" {
		t.Fatal("a tool call's hook rebuilt the word index on the host's time")
	}
	if out := hookRun(t, home, "claude-code", ev("s2", `"hook_event_name":"SessionStart","source":"startup"`)); out != "" {
		t.Fatalf("a start over a cold index printed %s", out)
	}
	deadline := time.Now().Add(time.Minute)
	for b, _ := os.ReadFile(snap); string(b) == "an index of an older format"; b, _ = os.ReadFile(snap) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
			t.Fatalf("no index saved a minute after the cold start; hook log:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out := hookRun(t, home, "claude-code", ev("s3", `"hook_event_name":"SessionStart","source":"startup"`)); !strings.Contains(out, "make ci") {
		t.Fatalf("the start after the warm-up printed %q", out)
	}
	log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
	if !strings.Contains(string(log), "brought up to date in the background") {
		t.Errorf("the hook log does not say why the start had no memory:\n%s", log)
	}
	if r := mneme(t, home, "", "sync", "--indexes", "--embedder", "hash"); r.code != 2 || !strings.Contains(r.stderr, "embeds nothing") {
		t.Errorf("sync --indexes --embedder: exit %d, %q", r.code, r.stderr)
	}
	if out := ok(t, home, "sync", "--indexes", "--json"); strings.TrimSpace(out) != `{"indexed":1}` { // s3's session record, left by the refusal too
		t.Errorf("sync --indexes after the warm-up: %s", out)
	}
}

// TestHookLeavesAMigrationToABackgroundProcess: a hook over a home of
// more than 20,000 records whose schema is behind this binary (here: the
// last migration not yet applied, which must be one that can run again)
// does not migrate it on the host's time: it captures nothing, exits 0
// silently, and starts `mneme migrate` in a process of its own; once that
// is done, hooks capture again.
func TestHookLeavesAMigrationToABackgroundProcess(t *testing.T) {
	home, repo := largeHome(t, 20_050)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "mneme.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	version := func() (v int) {
		t.Helper()
		if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	current := version()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", current-1)); err != nil {
		t.Fatal(err)
	}
	prompt := func(text string) string {
		return fmt.Sprintf(`{"session_id":"m1","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":%q}`, repo, text)
	}
	if out := hookRun(t, home, "claude-code", prompt("while the schema is behind")); out != "" {
		t.Fatalf("the hook printed %s", out)
	}
	for deadline := time.Now().Add(time.Minute); version() != current; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
			t.Fatalf("the schema is still behind a minute later; hook log:\n%s", log)
		}
	}
	hookRun(t, home, "claude-code", prompt("once it is migrated"))
	out := ok(t, home, "list", "--project", "shop", "--session", "m1", "--json")
	if !strings.Contains(out, "once it is migrated") || strings.Contains(out, "while the schema is behind") {
		t.Errorf("captured: %s", out)
	}
}
