package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// crashCode: one repository and one home through the trials. Each trial
// edits most files (every chunk names the file's revision, so a stale
// record is not part of the new content), runs `code <cmd> --index` and
// kills it at a random moment; after the next code command (`code delta
// --index`, uninterrupted), every file's records are its content on disk,
// whatever the kill interrupted (the artifact written, the records not).
func crashCode(cmd string) func(t *testing.T, c *crashRun) {
	return func(t *testing.T, c *crashRun) {
		t.Setenv("XDG_CACHE_HOME", t.TempDir())
		repo, home := t.TempDir(), filepath.Join(t.TempDir(), "home")
		revision := make([]int, crashCodeFiles)
		edit := func(all bool) int {
			n := 0
			for i := range revision {
				if all || c.rng.IntN(10) < 7 {
					revision[i]++
					n++
					body := fmt.Sprintf("package p%d\n\n// File %d at revision %d: %s.\nfunc F%d() {}\n", i, i, revision[i], crashText(c.rng, 12), i)
					os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%03d.go", i)), []byte(body), 0o644)
				}
			}
			return n
		}
		args := []string{"code", cmd, repo, "--index", "--embedder", "hash", "--json"}
		catchUp := []string{"code", "delta", repo, "--index", "--embedder", "hash", "--json"}
		edit(true)
		ok(t, home, catchUp...)
		edit(true)
		ref := runKilled(t, home, -1, args...)
		if ref.code != 0 {
			t.Fatalf("reference code %s: exit %d: %s", cmd, ref.code, ref.stderr)
		}
		for i := range c.trials {
			edited := edit(false)
			d := time.Duration((0.02 + 0.88*c.rng.Float64()) * float64(ref.took)) // the writes are early: the end is closing
			k := runKilled(t, home, d, args...)
			label := fmt.Sprintf("trial %d (%d files edited, kill after %v of a %v run)", i, edited, d.Round(time.Millisecond), ref.took.Round(time.Millisecond))
			if !k.killed && k.code != 0 {
				t.Fatalf("%s: exit %d: %s", label, k.code, k.stderr)
			}
			integrity(t, home)
			stale := staleFiles(t, home, repo)
			ok(t, home, catchUp...)
			if left := staleFiles(t, home, repo); len(left) > 0 {
				t.Fatalf("%s: after the next code command, %d files' records are not their content, e.g. %s", label, len(left), left[0])
			}
			outcome := map[bool]string{true: "killed", false: "finished"}[k.killed]
			if len(stale) > 0 {
				outcome += " (files left to catch up)"
			}
			t.Logf("%s: %s, %d stale before the next command", label, outcome, len(stale))
			c.note(outcome)
			if failed := afterCrash(t, home, 1); len(failed) > 0 {
				t.Fatalf("%s: doctor after recall: %q", label, failed)
			}
			if swept(t, home, label) {
				c.note("temporary snapshot left, swept")
			}
		}
	}
}

// staleFiles lists the files of repo whose records in home are missing or
// hold text that is not in the file as it is on disk.
func staleFiles(t *testing.T, home, repo string) []string {
	t.Helper()
	records := exported(t, home)
	var stale []string
	for i := range crashCodeFiles {
		name := fmt.Sprintf("f%03d.go", i)
		data, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			t.Fatal(err)
		}
		texts := records[name]
		fresh := len(texts) > 0
		for _, text := range texts {
			fresh = fresh && strings.Contains(string(data), text)
		}
		if !fresh {
			stale = append(stale, fmt.Sprintf("%s: %q", name, texts))
		}
	}
	return stale
}
