package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextCLI: a package by query, by request file and by batch; bad
// budgets and empty queries exit 2 naming the allowed range.
func TestContextCLI(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "Releases are cut on Tuesdays after the freeze.", "--embedder", "hash", "--session", "s1")
	ok(t, home, "remember", "Lunch is at noon.", "--embedder", "hash", "--session", "s2")
	out := ok(t, home, "context", "when are releases cut", "--budget", "100", "--embedder", "hash")
	if !strings.HasPrefix(out, "## session s1 · ") || !strings.Contains(out, "[1] Releases are cut on Tuesdays after the freeze.") {
		t.Fatalf("context text:\n%s", out)
	}
	dir := t.TempDir()
	req := filepath.Join(dir, "q.json")
	os.WriteFile(req, []byte(`{"id":"a","query":"releases","budget":80}`), 0o600)
	if out := ok(t, home, "context", "--request", req, "--json", "--embedder", "hash"); !strings.Contains(out, `"id":"a"`) || !strings.Contains(out, `"budget":80`) {
		t.Fatalf("request: %s", out)
	}
	batch := filepath.Join(dir, "b.jsonl")
	os.WriteFile(batch, []byte("{\"id\":\"1\",\"query\":\"releases\"}\n{\"id\":\"2\",\"query\":\"lunch\",\"mode\":\"lexical\"}\n"), 0o600)
	if out := ok(t, home, "context", "--batch", batch, "--json", "--embedder", "hash"); strings.Count(out, "\n") != 2 || !strings.Contains(out, "Lunch is at noon.") {
		t.Fatalf("batch: %s", out)
	}
	os.WriteFile(batch, []byte("{\"query\":\"releases\"}\n{\"query\":\"lunch\",\"budget\":20}\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"context", "x", "--budget", "49"}, "budget 49 is out of range: use 50 to 100000 tokens"},
		{[]string{"context", "x", "--budget", "100001"}, "use 50 to 100000 tokens"},
		{[]string{"context", "--batch", batch}, "line 2: budget 20 is out of range: use 50 to 100000"},
		{[]string{"context", "--batch", batch, "--budget", "500"}, `--budget cannot go with a request file: put "budget" in the request`},
		{[]string{"context", " "}, "query is empty"},
	} {
		r := mneme(t, home, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}
