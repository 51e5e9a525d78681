package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookNeverHarmsHost: bad input exits 0 with nothing on stdout,
// stores nothing harmful and logs the reason in the home.
func TestHookNeverHarmsHost(t *testing.T) {
	home, repo := hookHome(t)
	ev := func(name, extra string) string {
		return fmt.Sprintf(`{"session_id":"bad-1","cwd":%q,"hook_event_name":%q%s}`, repo, name, extra)
	}
	big := strings.Repeat("x", 17<<20)
	cases := []struct{ name, host, stdin, log string }{
		{"malformed", "claude-code", `{"session_id":`, "malformed claude-code event"},
		{"wrong type", "claude-code", `{"session_id":42,"hook_event_name":"Stop"}`, "malformed"},
		{"not an object", "gemini", `[1,2]`, "malformed"},
		{"unknown host", "vim", ev("Stop", ""), "unknown host"},
		{"no session", "codex", `{"hook_event_name":"Stop","cwd":"/"}`, "no session id"},
		{"over 16 MiB", "claude-code", ev("UserPromptSubmit", `,"prompt":"`+big+`"`), "over the limit"},
	}
	for _, c := range cases {
		r := mneme(t, home, c.stdin, "hook", c.host)
		if r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, r.code, r.stdout, r.stderr)
		}
		log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
		if !strings.Contains(string(log), c.log) {
			t.Errorf("%s: log lacks %q:\n%s", c.name, c.log, log)
		}
	}
	// An unknown event and an empty one are no-ops, not errors.
	for _, in := range []string{ev("SomeFutureEvent", ""), ""} {
		if r := mneme(t, home, in, "hook", "claude-code"); r.code != 0 || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", in, r.code, r.stdout)
		}
	}
	if out := ok(t, home, "list", "--json"); strings.Contains(out, `"id"`) {
		t.Errorf("bad input stored records: %s", out)
	}
}

// TestHookCapturePrivacy: private spans, credentials and mneme's own
// context are never stored; huge and binary outputs are bounded; events
// twice or out of order make one session.
func TestHookCapturePrivacy(t *testing.T) {
	home, repo := hookHome(t)
	send := func(name, extra string) {
		hookRun(t, home, "claude-code", fmt.Sprintf(`{"session_id":"p-1","cwd":%q,"hook_event_name":%q%s}`, repo, name, extra))
	}
	// A tool call before the session start (out of order), then twice.
	tool := `,"tool_name":"Bash","tool_input":{"command":"make deploy"},"tool_response":{"stdout":"deployed v2"}`
	send("PostToolUse", tool)
	send("SessionStart", `,"source":"startup"`)
	send("PostToolUse", tool)
	send("UserPromptSubmit", `,"prompt":"deploy with key AKIAIOSFODNN7EXAMPLE <private>my home address</private> now"`)
	send("UserPromptSubmit", `,"prompt":"deploy with key AKIAIOSFODNN7EXAMPLE <private>my home address</private> now"`)
	send("UserPromptSubmit", `,"prompt":"<mneme-context>\n[1] an old memory\n</mneme-context>"`)
	send("PostToolUse", `,"tool_name":"mcp__mneme__recall","tool_input":{"query":"x"},"tool_response":"[1] an old memory"`)
	send("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"big.log"},"tool_response":"`+strings.Repeat("line of log ", 100_000)+`"`)
	send("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"logo.png"},"tool_response":"PNG\u0000\u0001\u0002"`)
	send("PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"cat /home/alice/.ssh/config"},"tool_response":{"stdout":"see C:\\Users\\bob\\notes.txt and ~/todo.md"}`)
	send("Stop", "")
	send("Stop", "")
	out := ok(t, home, "list", "--project", "shop-api", "--json", "--limit", "100")
	for _, never := range []string{"AKIAIOSFODNN7EXAMPLE", "home address", "an old memory", "mcp__mneme", "/home/alice", "Users", "~/"} {
		if strings.Contains(out, never) {
			t.Errorf("stored %q", never)
		}
	}
	l := decode[listed](t, out)
	kinds := map[string]int{}
	for _, r := range l.Records {
		kinds[r.Kind]++
		if len(r.Text) > 2000 && r.Kind == "tool_call" {
			t.Errorf("tool call not bounded: %d bytes", len(r.Text))
		}
		if r.Kind == "session" && !strings.Contains(r.Text, "1 repeated") {
			t.Errorf("repeat not counted: %q", r.Text)
		}
	}
	if kinds["session"] != 1 || kinds["turn"] != 1 || kinds["tool_call"] != 4 {
		t.Errorf("kinds %v: want one session, one prompt, four tool calls", kinds)
	}
	if !strings.Contains(out, "(binary output, 6 bytes)") || !strings.Contains(out, "[REDACTED:") {
		t.Errorf("binary output or redaction missing: %s", out)
	}
}

// TestHookNotesToLog: what mneme would print on standard error (here a
// store rebuilding a damaged index snapshot) goes to the hook log, never
// to the host.
func TestHookNotesToLog(t *testing.T) {
	home, repo := hookHome(t)
	start := fmt.Sprintf(`{"session_id":"n-1","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, repo)
	hookRun(t, home, "claude-code", start)
	ok(t, home, "remember", "a memory so the index has something to keep", "--project", "shop-api")
	if err := os.WriteFile(filepath.Join(home, "lexical.idx"), []byte("not an index"), 0o600); err != nil {
		t.Fatal(err)
	}
	hookRun(t, home, "claude-code", strings.Replace(start, "n-1", "n-2", 1)) // fails on any stderr
	log, _ := os.ReadFile(filepath.Join(home, "logs", "hooks.log"))
	if !strings.Contains(string(log), "snapshot unusable") {
		t.Errorf("the store's note is not in the hook log:\n%s", log)
	}
}
