package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type jobsJSON struct {
	Jobs []struct {
		Kind, Caller, Status, Project, Cursor, Error string
		Counts                                       map[string]int
		EndedAt                                      *time.Time `json:"ended_at"`
	}
}

// TestJobsLedger: a sync killed while the provider hangs leaves an entry
// that reads as interrupted; the next sync records its counts; ingest
// records its run in its project; `mneme jobs` lists them newest first
// (by kind too), stats shows the last run of each kind, and bad flags
// exit 2.
func TestJobsLedger(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	p := newProvider(t, "ok")
	home := t.TempDir()
	useProvider(t, home, "ollama", p.URL)
	ok(t, home, "remember", "the first memory binds the embedder")
	p.mode.Store("down")
	ok(t, home, "remember", "written while the provider is down")
	ok(t, home, "remember", "also written while it is down")
	p.mode.Store("hang")
	cmd := exec.Command(bin, "sync")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		js := decode[jobsJSON](t, ok(t, home, "jobs", "--json"))
		if len(js.Jobs) == 1 && js.Jobs[0].Status == "running" {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no running sync in the ledger: %+v", js)
		}
	}
	cmd.Process.Kill() // as kill -9: no chance to record its end
	cmd.Wait()
	js := decode[jobsJSON](t, ok(t, home, "jobs", "--json"))
	if len(js.Jobs) != 1 || js.Jobs[0].Status != "interrupted" || js.Jobs[0].EndedAt != nil || !strings.Contains(js.Jobs[0].Error, "without recording its end") {
		t.Fatalf("the killed sync: %+v", js)
	}
	p.mode.Store("ok")
	ok(t, home, "sync")
	docs := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(docs, 0o700)
	os.WriteFile(filepath.Join(docs, "a.md"), []byte("# Release\n\nWe release on Tuesdays.\n"), 0o600)
	ok(t, home, "ingest", docs, "--project", "handbook")
	js = decode[jobsJSON](t, ok(t, home, "jobs", "--json"))
	if len(js.Jobs) != 3 || js.Jobs[0].Kind != "ingest" || js.Jobs[0].Project != "handbook" || js.Jobs[0].Counts["files"] != 1 || js.Jobs[0].Status != "done" ||
		js.Jobs[1].Kind != "sync" || js.Jobs[1].Status != "done" || js.Jobs[1].Counts["embedded"] != 2 || js.Jobs[1].Caller != "owner" {
		t.Fatalf("ledger: %+v", js)
	}
	if js := decode[jobsJSON](t, ok(t, home, "jobs", "--kind", "sync", "--limit", "1", "--json")); len(js.Jobs) != 1 || js.Jobs[0].Status != "done" {
		t.Fatalf("--kind sync --limit 1: %+v", js)
	}
	text := ok(t, home, "jobs")
	if lines := strings.Split(strings.TrimSpace(text), "\n"); len(lines) != 3 || !strings.Contains(lines[0], "ingest    done") || !strings.Contains(lines[0], "in handbook: ") ||
		!strings.Contains(lines[2], "sync      interrupted") {
		t.Fatalf("jobs:\n%s", text)
	}
	if st := ok(t, home, "stats"); !strings.Contains(st, "last runs (mneme jobs lists them):\n") || !strings.Contains(st, "sync      done") || !strings.Contains(st, "ingest    done") {
		t.Fatalf("stats:\n%s", st)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"jobs", "--kind", "backup"}, `job kind "backup" is not one of sync, reindex, summarize, ingest, code`},
		{[]string{"jobs", "--limit", "0"}, "limit 0 is out of range: use 1 to 200"},
		{[]string{"jobs", "extra"}, ""},
	} {
		if r := mneme(t, home, "", c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, r.code, r.stderr)
		}
	}
}
