package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentSurfaces writes to one home from every side at once: three
// loops of `mneme remember` processes, an `mneme import`, a loop of `mneme
// recall` processes, and a running `mneme serve` taking POST /v1/memories
// from four clients. Every write is acknowledged (exit 0, HTTP 201), the
// store holds exactly the acknowledged records, and no "database is
// locked" (SQLITE_BUSY) reaches a user: not on a process's standard error,
// not in an HTTP body, not in the server's log. (TestConcurrentWriters is
// the small version: ten remember processes started together.)
func TestConcurrentSurfaces(t *testing.T) {
	const (
		loops, perLoop   = 3, 20 // remember processes
		clients, perHTTP = 4, 40 // HTTP writes
		imported         = 2000  // records in the import
		recalls          = 10
	)
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"}}`), 0o600)
	s := serve(t, home)

	var lines strings.Builder
	for i := range imported {
		fmt.Fprintf(&lines, `{"text":"imported memory %d about the deploy pipeline","project":"bulk"}`+"\n", i)
	}
	file := filepath.Join(t.TempDir(), "bulk.jsonl")
	os.WriteFile(file, []byte(lines.String()), 0o600)

	var (
		mu     sync.Mutex
		acked  = map[string]bool{} // ids of acknowledged single writes
		leaked []string            // what a user saw that mentions busy or locked
		failed []string
	)
	busy := func(where, s string) {
		l := strings.ToLower(s)
		if strings.Contains(l, "locked") || strings.Contains(l, "busy") {
			mu.Lock()
			leaked = append(leaked, where+": "+s)
			mu.Unlock()
		}
	}
	fail := func(format string, args ...any) {
		mu.Lock()
		failed = append(failed, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	var importRes writeJSON
	var wg sync.WaitGroup
	start := make(chan struct{})
	for l := range loops {
		wg.Go(func() {
			<-start
			for i := range perLoop {
				r := mneme(t, home, "", "remember", fmt.Sprintf("cli loop %d memory %d about releases", l, i), "--project", "cli", "--json")
				busy("remember stderr", r.stderr)
				if r.code != 0 {
					fail("remember: exit %d: %s", r.code, r.stderr)
					continue
				}
				var w writeJSON
				if json.Unmarshal([]byte(r.stdout), &w) != nil || w.ID == "" || w.Inserted != 1 {
					fail("remember output %q", r.stdout)
					continue
				}
				mu.Lock()
				acked[w.ID] = true
				mu.Unlock()
			}
		})
	}
	wg.Go(func() {
		<-start
		r := mneme(t, home, "", "import", file, "--json")
		busy("import stderr", r.stderr)
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &importRes) != nil || importRes.Inserted != imported {
			fail("import: exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
	})
	wg.Go(func() {
		<-start
		for range recalls {
			r := mneme(t, home, "", "recall", "deploy pipeline releases", "--json")
			busy("recall stderr", r.stderr)
			if r.code != 0 {
				fail("recall: exit %d: %s", r.code, r.stderr)
			}
		}
	})
	for c := range clients {
		wg.Go(func() {
			<-start
			for i := range perHTTP {
				body := fmt.Sprintf(`{"text":"http client %d memory %d about incidents","project":"http"}`, c, i)
				status, _, resp := httpDo(t, "POST", s.url+"/v1/memories", body, map[string]string{"Content-Type": "application/json"})
				busy("HTTP body", resp)
				var w struct{ ID string }
				if status != 201 || json.Unmarshal([]byte(resp), &w) != nil || w.ID == "" {
					fail("POST /v1/memories: %d %s", status, resp)
					continue
				}
				mu.Lock()
				acked[w.ID] = true
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	s.stop(t)
	busy("serve log", s.log.String())
	if len(leaked) > 0 {
		t.Errorf("busy or locked reached a user:\n%s", strings.Join(leaked, "\n"))
	}
	if len(failed) > 0 {
		t.Fatalf("%d writes failed:\n%s", len(failed), strings.Join(failed, "\n"))
	}

	want := loops*perLoop + clients*perHTTP + imported
	if len(acked) != loops*perLoop+clients*perHTTP {
		t.Fatalf("%d distinct ids for %d single writes", len(acked), loops*perLoop+clients*perHTTP)
	}
	st := decode[map[string]any](t, ok(t, home, "stats", "--json"))
	if int(st["total"].(float64)) != want {
		t.Fatalf("stats: %v records, %d acknowledged", st["total"], want)
	}
	stored := map[string]bool{}
	for line := range strings.SplitSeq(strings.TrimSpace(ok(t, home, "export")), "\n") {
		var r struct{ ID string }
		json.Unmarshal([]byte(line), &r)
		stored[r.ID] = true
	}
	for id := range acked {
		if !stored[id] {
			t.Errorf("acknowledged write %s is not stored", id)
		}
	}
	if len(stored) != want {
		t.Fatalf("export: %d records, %d acknowledged", len(stored), want)
	}
}
