package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func opsHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

const opsBatch = `{"project":"app","entries":[
 {"kind":"session","session":"s1","host":"claude-code","repo":".","started_at":"2026-05-01T10:00:00Z"},
 {"kind":"run","session":"s1","run":"r1","goal":"fix the flaky clock test","status":"done","at":"2026-05-01T10:00:01Z"},
 {"kind":"tool_call","session":"s1","run":"r1","tool":"Bash","input":"go test -run TestClock ./...","outcome":"FAIL: timeout","duration_ms":1200,"success":false,"at":"2026-05-01T10:00:02Z"},
 {"kind":"validation","session":"s1","run":"r1","check":"go-test","status":"pass","at":"2026-05-01T10:00:03Z"},
 {"kind":"session","session":"s2","host":"codex","started_at":"2026-06-01T10:00:00Z"},
 {"kind":"tool_call","session":"s2","tool":"Read","input":"clock/clock.go","outcome":"120 lines","at":"2026-06-01T10:00:01Z"}]}`

// TestOps runs ops write, read and prune through the binary, and the
// session and run filters of list, recall and context.
func TestOps(t *testing.T) {
	home := opsHome(t)
	req := filepath.Join(t.TempDir(), "batch.json")
	os.WriteFile(req, []byte(opsBatch), 0o600)
	if out := ok(t, home, "ops", "write", "--request", req, "--json"); !strings.Contains(out, `"written":6`) {
		t.Fatalf("write: %s", out)
	}
	// The same batch on standard input: every entry is a duplicate.
	if r := mneme(t, home, opsBatch, "ops", "write", "--request", "-", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"skipped_duplicates":6`) {
		t.Fatalf("write from stdin: %+v", r)
	}
	out := ok(t, home, "ops", "read", "--session", "s1")
	for _, want := range []string{"session s1", "claude-code in .", "r1: fix the flaky clock test: done", "Bash: go test -run TestClock ./... -> FAIL: timeout (1200 ms) [failed] (run r1)", "Validation go-test: pass"} {
		if !strings.Contains(out, want) {
			t.Fatalf("timeline lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "run ") > strings.Index(out, "Validation") {
		t.Fatalf("timeline out of order:\n%s", out)
	}
	type page struct {
		Entries []struct{ Kind, Session, Run string } `json:"entries"`
	}
	for args, want := range map[string]int{
		"--session s1": 4, "--run r1": 3, "--session s2 --run r1": 0, "--kind tool_call": 2,
		"--kind route": 0, "--since 2026-05-15": 2, "--until 2026-05-01T10:00:01Z": 2, "--project other": 0,
	} {
		p := decode[page](t, ok(t, home, append([]string{"ops", "read", "--json"}, strings.Fields(args)...)...))
		if len(p.Entries) != want {
			t.Fatalf("ops read %s: %d entries, want %d", args, len(p.Entries), want)
		}
	}
	// session and run filter list, recall and context.
	type list struct {
		Records []struct {
			SessionID string `json:"session_id"`
		} `json:"records"`
	}
	if l := decode[list](t, ok(t, home, "list", "--session", "s2", "--json")); len(l.Records) != 2 {
		t.Fatalf("list --session s2: %+v", l)
	}
	if l := decode[list](t, ok(t, home, "list", "--run", "r1", "--session", "s1", "--json")); len(l.Records) != 3 {
		t.Fatalf("list --run r1: %+v", l)
	}
	rc := decode[recallJSON](t, ok(t, home, "recall", "clock", "--session", "s2", "--json"))
	if len(rc.Hits) == 0 {
		t.Fatal("recall --session s2 found nothing")
	}
	for _, h := range rc.Hits {
		if h.Record["session_id"] != "s2" {
			t.Fatalf("recall --session s2 returned %v", h.Record)
		}
	}
	if out := ok(t, home, "context", "flaky clock test", "--run", "r1"); strings.Contains(out, "clock/clock.go") {
		t.Fatalf("context --run r1 holds another session's entry:\n%s", out)
	}
	// summarize --session summarises one session's entries.
	type summary struct {
		SourceIDs []string `json:"source_ids"`
	}
	if s := decode[summary](t, ok(t, home, "summarize", "--project", "app", "--session", "s1", "--since", "2026-05-01", "--until", "2026-05-02", "--json")); len(s.SourceIDs) != 4 {
		t.Fatalf("summarize --session s1: %d sources, want 4", len(s.SourceIDs))
	}
	// prune: --before is required; a dry run changes nothing.
	if r := mneme(t, home, "", "ops", "prune"); r.code != 2 || !strings.Contains(r.stderr, "before") {
		t.Fatalf("prune without --before: %+v", r)
	}
	if out := ok(t, home, "ops", "prune", "--before", "2026-05-15", "--dry-run", "--json"); !strings.Contains(out, `"dry_run":true`) || strings.Count(out, `","`)+1 != 4 {
		t.Fatalf("dry run: %s", out)
	}
	if out := ok(t, home, "ops", "prune", "--before", "2026-05-15", "--session", "s1", "--json"); !strings.Contains(out, `"pruned":4`) {
		t.Fatalf("prune: %s", out)
	}
	if p := decode[page](t, ok(t, home, "ops", "read", "--json")); len(p.Entries) != 2 {
		t.Fatalf("after prune: %+v", p)
	}
}

// TestOpsBadInput: a bad batch exits 2 naming the row and field, and
// writes nothing.
func TestOpsBadInput(t *testing.T) {
	home := opsHome(t)
	huge := `{"entries":[{"kind":"session","session":"s1"},{"kind":"tool_call","session":"s1","tool":"Bash","outcome":"` + strings.Repeat("x", 9<<20) + `"}]}`
	for name, c := range map[string]struct{ body, want string }{
		"unknown field":   {`{"entries":[{"kind":"session","session":"s1","colour":1}]}`, "entries[0].colour: unknown field"},
		"missing session": {`{"entries":[{"kind":"tool_call","session":"s9","tool":"Bash"}]}`, `entries[0].session: no session "s9"`},
		"absolute path":   {`{"entries":[{"kind":"session","session":"s1"},{"kind":"artifact","session":"s1","path":"/home/ann/a.go"}]}`, "entries[1].path: absolute path"},
		"100 MB output":   {huge, "larger than 8 MiB"},
		"not json":        {`{"entries":[`, "invalid JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			r := mneme(t, home, c.body, "ops", "write", "--request", "-")
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
	if r := mneme(t, home, "", "ops", "read", "--json"); r.code == 0 && !strings.Contains(r.stdout, `"entries":[]`) {
		t.Fatalf("something was written: %s", r.stdout)
	}
}

// TestIngestStoresRelativePaths: ingest stores and context shows paths
// relative to the repository (else to the directory's parent), never the
// absolute path that would name the user's home; --sync still forgets.
func TestIngestStoresRelativePaths(t *testing.T) {
	home := opsHome(t)
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "docs"), 0o755)
	os.WriteFile(filepath.Join(repo, "docs", "release.md"), []byte("# Release\n\nReleases are cut by the pipeline on tags.\n"), 0o600)
	os.WriteFile(filepath.Join(repo, "docs", "old.md"), []byte("# Old\n\nThe old release train ran weekly.\n"), 0o600)
	plain := t.TempDir()
	os.WriteFile(filepath.Join(plain, "notes.md"), []byte("# Notes\n\nThe release notes live in the wiki.\n"), 0o600)
	ok(t, home, "ingest", filepath.Join(repo, "docs"), plain)
	type list struct {
		Records []struct {
			Source struct{ URI string } `json:"source"`
		} `json:"records"`
	}
	uris := map[string]bool{}
	for _, r := range decode[list](t, ok(t, home, "list", "--json")).Records {
		uris[r.Source.URI] = true
	}
	want := map[string]bool{"docs/release.md": true, "docs/old.md": true, filepath.Base(plain) + "/notes.md": true}
	if len(uris) != len(want) {
		t.Fatalf("stored sources %v, want %v", uris, want)
	}
	for u := range want {
		if !uris[u] {
			t.Fatalf("stored sources %v, want %v", uris, want)
		}
	}
	out := ok(t, home, "context", "how are releases cut")
	if !strings.Contains(out, "docs/release.md") || strings.Contains(out, repo) {
		t.Fatalf("context headers:\n%s", out)
	}
	os.Remove(filepath.Join(repo, "docs", "old.md"))
	ok(t, home, "ingest", "--sync", filepath.Join(repo, "docs"))
	if l := decode[list](t, ok(t, home, "list", "--json")); len(l.Records) != 2 {
		t.Fatalf("after --sync: %+v", l)
	}
}
