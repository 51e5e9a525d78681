package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerminalEscapes: what list, recall, get and history print for people
// shows control characters escaped; --json keeps the stored text exact;
// messages and warnings on standard error are escaped too, and follow
// --json.
func TestTerminalEscapes(t *testing.T) {
	home := t.TempDir()
	text := "deploy notes \x1b]0;pwned\x07 \x1b[2J\x1b[31mred\x1b[0m \u009b1m \u202eevil\u202c\nsecond line\r\n\tindented"
	title := "release \x1b[5mblink\x1b[0m"
	id := decode[writeJSON](t, mnemeOK(t, home, text, "remember", "-", "--title", title, "--key", "deploy", "--json")).ID
	raw := func(s string) bool { return strings.ContainsAny(s, "\x1b\x07\u009b\u202e\u202c") }
	for _, args := range [][]string{
		{"list"},
		{"recall", "deploy notes", "--mode", "lexical", "--explain"},
		{"get", id},
		{"history", "--key", "deploy"},
	} {
		out := ok(t, home, args...)
		if raw(out) || !strings.Contains(out, `\x1b[5mblink`) {
			t.Errorf("%v prints control characters raw, or not escaped:\n%q", args, out)
		}
	}
	get := ok(t, home, "get", id)
	if !strings.Contains(get, `\x1b]0;pwned\x07 \x1b[2J\x1b[31mred\x1b[0m \u009b1m \u202eevil\u202c`+"\nsecond line\r\n\tindented") {
		t.Errorf("get: the text's newlines and tab are kept, the rest escaped:\n%q", get)
	}
	rec := decode[struct{ Text, Title string }](t, ok(t, home, "get", id, "--json"))
	if rec.Text != text || rec.Title != title {
		t.Errorf("--json changed the stored text: %q %q", rec.Text, rec.Title)
	}

	// A message quoting a path, and a warning quoting a provider's answer.
	bad := filepath.Join(t.TempDir(), "no\x1b[31msuch")
	if r := mneme(t, home, "", "ingest", bad); r.code != 2 || raw(r.stderr) || !strings.Contains(r.stderr, `no\x1b[31msuch`) {
		t.Errorf("ingest error: exit %d %q", r.code, r.stderr)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"llm":{"provider":"ollama","url":"http://127.0.0.1:1","model":"tiny"}}`), 0o600)
	r := mneme(t, home, "", "recall", "deploy notes", "--hyde")
	if r.code != 0 || !strings.HasPrefix(r.stderr, "note: no hypothesis, the generator is unavailable") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("human warning: exit %d %q", r.code, r.stderr)
	}
	r = mneme(t, home, "", "recall", "deploy notes", "--hyde", "--json")
	w := decode[struct {
		Warning struct{ Code, Message string }
	}](t, r.stderr).Warning
	if r.code != 0 || w.Code != "WDEGRADED" || !strings.Contains(w.Message, "no hypothesis") {
		t.Errorf("JSON warning: exit %d %q", r.code, r.stderr)
	}
	batch := filepath.Join(t.TempDir(), "b.jsonl")
	os.WriteFile(batch, []byte(`{"query":"deploy","hyde":true}`+"\n"+`{"query":"notes","hyde":true}`+"\n"), 0o600)
	if r := mneme(t, home, "", "recall", "--batch", batch, "--json"); r.code != 0 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("the same warning twice in a batch: exit %d %q", r.code, r.stderr)
	}
}

// mnemeOK runs mneme with stdin and fails the test unless it exits 0.
func mnemeOK(t *testing.T, home, stdin string, args ...string) string {
	t.Helper()
	r := mneme(t, home, stdin, args...)
	if r.code != 0 {
		t.Fatalf("mneme %v: exit %d: %s", args, r.code, r.stderr)
	}
	return r.stdout
}

// TestDashText: text starting with - is stored after --, where every
// argument is text; without it, the error says so.
func TestDashText(t *testing.T) {
	home := t.TempDir()
	r := mneme(t, home, "", "remember", "- a bullet")
	if r.code != 2 || !strings.Contains(r.stderr, `to store text that starts with -, put -- before it: mneme remember -- "- a bullet"`) {
		t.Fatalf("without --: exit %d %q", r.code, r.stderr)
	}
	w := decode[writeJSON](t, ok(t, home, "remember", "--project", "notes", "--json", "--", "- a bullet", "--tags", "x"))
	rec := decode[struct {
		Text, Project string
		Tags          []string
	}](t, ok(t, home, "get", w.ID, "--json"))
	if rec.Text != "- a bullet --tags x" || rec.Project != "notes" || len(rec.Tags) != 0 {
		t.Fatalf("after --: %+v", rec)
	}
	if out := ok(t, home, "recall", "--mode", "lexical", "--", "- bullet"); !strings.Contains(out, "- a bullet") {
		t.Fatalf("recall after --: %q", out)
	}
}
