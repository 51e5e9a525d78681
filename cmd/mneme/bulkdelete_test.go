package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// seed imports n records of project, each with status, in one process.
func seed(t *testing.T, home, project, status string, n int) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"project":%q,"status":%q,"text":"note %s %d about the %s rollout"}`+"\n", project, status, project, i, status)
	}
	file := filepath.Join(t.TempDir(), "seed.jsonl")
	os.WriteFile(file, []byte(b.String()), 0o600)
	ok(t, home, "import", file)
}

func count(t *testing.T, home, project string) int {
	t.Helper()
	return len(decode[struct{ Records []any }](t, ok(t, home, "list", "--project", project, "--status", "active,draft", "--limit", "200", "--json")).Records)
}

// TestPruneNeverEmptiesAProject: a prune whose selection is every current
// record of a project is refused like a bare --project, dry run included;
// one that leaves a current record is done.
func TestPruneNeverEmptiesAProject(t *testing.T) {
	home := t.TempDir()
	seed(t, home, "p", "active", 3)
	seed(t, home, "q", "active", 2)
	for _, args := range [][]string{
		{"prune", "--status", "active", "--project", "p"},
		{"prune", "--status", "active", "--project", "p", "--dry-run", "--yes"},
		{"prune", "--status", "active", "--yes"},
		{"prune", "--before", "2100-01-01", "--project", "q"},
	} {
		r := mneme(t, home, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "every current record of project") || !strings.Contains(r.stderr, "forget --project") {
			t.Errorf("%v: exit %d %q", args, r.code, r.stderr)
		}
	}
	if n, m := count(t, home, "p"), count(t, home, "q"); n != 3 || m != 2 {
		t.Fatalf("a refused prune deleted records: %d and %d left", n, m)
	}
	seed(t, home, "p", "draft", 1) // drafts do not count: the prune would still empty p
	if r := mneme(t, home, "", "prune", "--status", "active", "--project", "p"); r.code != 2 {
		t.Fatalf("prune that keeps only a draft: exit %d %q", r.code, r.stderr)
	}
	if p := decode[pruneJSON](t, ok(t, home, "prune", "--status", "draft", "--project", "p", "--json")); p.Pruned != 1 {
		t.Fatalf("prune of the drafts = %+v", p)
	}
	seed(t, home, "p", "validated", 1)
	p := decode[pruneJSON](t, ok(t, home, "prune", "--status", "active", "--project", "p", "--json"))
	if p.Pruned != 3 || count(t, home, "p") != 0 {
		t.Fatalf("prune that keeps the validated record = %+v", p)
	}
}

// TestBulkDeleteAsks: forget or prune by filter of more than 10 records
// asks on a terminal, and without one is refused unless --yes.
func TestBulkDeleteAsks(t *testing.T) {
	home := t.TempDir()
	seed(t, home, "big", "active", 12)
	seed(t, home, "big", "draft", 12)
	seed(t, home, "small", "active", 3)
	for _, args := range [][]string{{"forget", "--project", "big"}, {"prune", "--status", "draft"}} {
		r := mneme(t, home, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, "would delete 12 memories") && !strings.Contains(r.stderr, "would delete 24 memories") || !strings.Contains(r.stderr, "--yes") {
			t.Errorf("%v piped: exit %d %q", args, r.code, r.stderr)
		}
	}
	if n := count(t, home, "big"); n != 24 {
		t.Fatalf("a refused bulk delete deleted: %d left", n)
	}
	ok(t, home, "forget", "--project", "big", "--dry-run")
	ok(t, home, "forget", "--project", "small", "--tags", "none") // nothing selected
	if out := ok(t, home, "forget", "--project", "small"); !strings.Contains(out, "forgot 3 memories") {
		t.Fatalf("small forget = %q", out)
	}

	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("this test needs `script` (util-linux) to provide a terminal: %v", err)
	}
	onTerminal := func(answer string, args string) string {
		cmd := exec.Command(script, "-qec", bin+" "+args, "/dev/null")
		cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
		cmd.Stdin = strings.NewReader(answer)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s on a terminal: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := onTerminal("n\n", "prune --status draft"); !strings.Contains(out, "prune 12 memories? [y/N]") || count(t, home, "big") != 24 {
		t.Fatalf("declined prune: %q, %d left", out, count(t, home, "big"))
	}
	if out := onTerminal("y\n", "prune --status draft"); !strings.Contains(out, "pruned 12 memories") || count(t, home, "big") != 12 {
		t.Fatalf("confirmed prune: %q", out)
	}
	if out := onTerminal("y\n", "forget --project big"); !strings.Contains(out, "forget 12 memories? [y/N]") || count(t, home, "big") != 0 {
		t.Fatalf("confirmed forget: %q", out)
	}
	seed(t, home, "big", "active", 12)
	if out := ok(t, home, "forget", "--project", "big", "--yes"); !strings.Contains(out, "forgot 12 memories") {
		t.Fatalf("forget --yes = %q", out)
	}
}
