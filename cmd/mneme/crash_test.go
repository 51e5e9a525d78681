package main_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the integrity check reads mneme.db itself
)

// The crash test kills the real binary with SIGKILL at random moments of
// import, ingest, reindex, sync, a stream of remember commands, and
// `code delta --index` and `code refresh --index`, then checks the
// home: SQLite's integrity check passes, every acknowledged write is there
// (an import whole or not at all, an ingested file whole or not at all,
// every remember that exited 0), recall works, and doctor is green after
// that recall. MNEME_CRASH_TRIALS sets the number of trials (default 32,
// scripts/crash-test runs 300); the kill delays come from a seeded generator
// whose seed is logged (MNEME_CRASH_SEED repeats a run's delays).

const (
	crashImportRecords = 2000
	crashIngestFiles   = 200
	crashTrialsDefault = 32
	crashCodeFiles     = 200
	crashCodeTrials    = 5
)

var crashWords = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " +
	"november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu release deploy cache postgres staging")

func crashText(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = crashWords[r.IntN(len(crashWords))]
	}
	return strings.Join(w, " ")
}

func TestCrashRecovery(t *testing.T) {
	trials := crashTrialsDefault
	if s := os.Getenv("MNEME_CRASH_TRIALS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("MNEME_CRASH_TRIALS=%q is not a positive number", s)
		}
		trials = n
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MNEME_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("MNEME_CRASH_SEED=%q is not a number", s)
		}
		seed = n
	}
	t.Logf("%d trials, seed %d (repeat the delays with MNEME_CRASH_SEED=%d)", trials, seed, seed)
	input := t.TempDir()
	kinds := []struct {
		name string
		run  func(t *testing.T, c *crashRun)
	}{
		{"import", crashImport},
		{"ingest", crashIngest},
		{"reindex", crashEmbed("reindex")},
		{"sync", crashEmbed("sync")},
		{"remember", crashRemember},
		{"code delta", crashCode("delta")},
		{"code refresh", crashCode("refresh")},
	}
	start, ran := time.Now(), 0
	for i, k := range kinds {
		n := trials / len(kinds)
		if i < trials%len(kinds) {
			n++
		}
		if strings.HasPrefix(k.name, "code") && os.Getenv("MNEME_CRASH_TRIALS") == "" {
			n = max(n, crashCodeTrials) // at least 10 code trials in CI
		}
		ran += n
		t.Run(k.name, func(t *testing.T) {
			c := &crashRun{trials: n, input: input, rng: rand.New(rand.NewPCG(seed, uint64(i)))}
			began := time.Now()
			k.run(t, c)
			t.Logf("%d trials in %v: %s", n, time.Since(began).Round(time.Millisecond), c.summary())
		})
	}
	t.Logf("all %d trials in %v", ran, time.Since(start).Round(time.Millisecond))
}

// crashRun is one kind's trials: its random delays and what they hit.
type crashRun struct {
	trials int
	input  string // shared input files
	rng    *rand.Rand
	mu     sync.Mutex
	counts map[string]int
}

func (c *crashRun) note(outcome string) { c.add(outcome, 1) }

func (c *crashRun) add(outcome string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[outcome] += n
}

func (c *crashRun) summary() string {
	var parts []string
	for k, v := range c.counts {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// delay picks a kill delay for a run that took ref uninterrupted: half of
// them anywhere in it (and a little past its end: a kill may come after the
// work is done), half in its last part, where the writes are.
func (c *crashRun) delay(ref time.Duration) time.Duration {
	f := 0.05 + 1.15*c.rng.Float64()
	if c.rng.IntN(2) == 0 {
		f = 0.6 + 0.5*c.rng.Float64()
	}
	return time.Duration(f * float64(ref))
}

// killed is what became of a process killed after a delay.
type killed struct {
	killed         bool // SIGKILL ended it (else it exited on its own)
	code           int
	stdout, stderr string
	took           time.Duration
}

// runKilled starts mneme over home and kills it after delay (a negative
// delay never kills).
func runKilled(t *testing.T, home string, delay time.Duration, args ...string) killed {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Errorf("start mneme %v: %v", args, err) // not Fatal: loops call this from goroutines
		return killed{code: -1}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	if delay < 0 {
		err = <-done
	} else {
		timer := time.NewTimer(delay)
		select {
		case err = <-done:
			timer.Stop()
		case <-timer.C:
			cmd.Process.Signal(syscall.SIGKILL) //nolint:errcheck // it may have just exited
			err = <-done
		}
	}
	k := killed{stdout: out.String(), stderr: errb.String(), took: time.Since(began)}
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			k.killed = true
		}
		k.code = ee.ExitCode()
	} else if err != nil {
		t.Errorf("mneme %v: %v", args, err)
		k.code = -1
	}
	return k
}

// integrity runs PRAGMA integrity_check on home's database, read-only, as
// the killed process left it (before any mneme process opens it again).
func integrity(t *testing.T, home string) {
	t.Helper()
	path := filepath.Join(home, "mneme.db")
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return // killed before it created the database
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("PRAGMA integrity_check")
	if err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	if len(got) != 1 || got[0] != "ok" {
		t.Fatalf("integrity_check: %q", got)
	}
}

// snapshotTemp is the name of an index snapshot (or the home's marker)
// being written.
var snapshotTemp = regexp.MustCompile(`^(lexical\.idx|vectors\.idx|mneme\.id)\.[0-9]+$`)

// swept checks the files a killed process left in home: only temporary
// files it did not get to rename, which the next open of the store (or
// snapshot write) removes once they are stale (made so here). It reports
// whether there were any.
func swept(t *testing.T, home, label string) bool {
	t.Helper()
	left := leftovers(home)
	if len(left) == 0 {
		return false
	}
	old := time.Now().Add(-time.Hour)
	for _, name := range left {
		if !snapshotTemp.MatchString(name) {
			t.Fatalf("%s: a killed process left %q in the home", label, name)
		}
		os.Chtimes(filepath.Join(home, name), old, old)
	}
	os.Remove(filepath.Join(home, "lexical.idx")) // the next recall rebuilds and saves it
	ok(t, home, "recall", "release", "--json", "--embedder", "hash")
	if l := leftovers(home); len(l) > 0 {
		t.Fatalf("%s: stale temporary snapshots were not swept: %q", label, l)
	}
	return true
}

// leftovers lists the files in home that are not mneme's own.
func leftovers(home string) []string {
	entries, _ := os.ReadDir(home)
	var out []string
	for _, e := range entries {
		switch e.Name() {
		case "mneme.db", "mneme.db-wal", "mneme.db-shm", "mneme.id", "lexical.idx", "vectors.idx", "config.json":
		default:
			out = append(out, e.Name())
		}
	}
	return out
}

// afterCrash checks home after a kill: integrity, recall, then doctor. It
// returns the doctor's failed checks as "name: fix", for the caller to
// judge (a killed reindex leaves memories to embed); recall must work and
// find something when total > 0 (--include-unmatched: a trial's texts need
// not share a word with the query).
func afterCrash(t *testing.T, home string, total int) []string {
	t.Helper()
	r := mneme(t, home, "", "recall", "release deploy postgres", "--json", "--embedder", "hash", "--include-unmatched")
	if r.code != 0 {
		t.Fatalf("recall after the crash: exit %d: %s", r.code, r.stderr)
	}
	if hits := decode[recallJSON](t, r.stdout).Hits; (len(hits) > 0) != (total > 0) {
		t.Fatalf("recall after the crash: %d hits over %d memories", len(hits), total)
	}
	r = mneme(t, home, "", "doctor", "--json", "--embedder", "hash", "--strict")
	d := decode[doctorJSON](t, r.stdout)
	var failed []string
	for _, c := range d.Checks {
		if !c.OK {
			failed = append(failed, c.Name+": "+c.Fix)
		}
	}
	if (r.code == 0) != (len(failed) == 0) {
		t.Fatalf("doctor exit %d with failed checks %q", r.code, failed)
	}
	return failed
}

func statsTotal(t *testing.T, home string) int {
	t.Helper()
	return int(decode[map[string]any](t, ok(t, home, "stats", "--json"))["total"].(float64))
}

// exported is home's export: each record's text by source URI (or "").
func exported(t *testing.T, home string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(ok(t, home, "export", "--clearance", "secret")), "\n") {
		if line == "" || strings.HasPrefix(line, `{"mneme_`) { // the document registry, not records
			continue
		}
		var r struct {
			Text   string
			Source *struct{ URI string }
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		uri := ""
		if r.Source != nil {
			uri = r.Source.URI
		}
		out[uri] = append(out[uri], r.Text)
	}
	for _, texts := range out {
		slices.Sort(texts)
	}
	return out
}

func copyHome(t *testing.T, from, to string) {
	t.Helper()
	os.MkdirAll(to, 0o700)
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		src, err := os.Open(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.OpenFile(filepath.Join(to, e.Name()), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		dst.Close()
	}
}

// trialHome is the home of trial i under root; each trial removes its own
// when it passes, so that hundreds of trials do not fill the disk.
func trialHome(root string, i int) string {
	return filepath.Join(root, fmt.Sprintf("trial-%03d", i))
}

func writeImportFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "import.jsonl")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	r := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for i := range crashImportRecords {
		enc.Encode(map[string]any{"text": fmt.Sprintf("crash record %d: %s", i, crashText(r, 30)), "project": "crash",
			"tags": []string{crashWords[i%len(crashWords)]}})
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	return path
}

// crashImport: an import is one transaction: after a kill the home holds
// all of the file's records or none, and importing again completes it.
func crashImport(t *testing.T, c *crashRun) {
	file := writeImportFile(t, c.input)
	root := t.TempDir()
	ref := runKilled(t, filepath.Join(root, "reference"), -1, "import", file, "--embedder", "hash", "--json")
	if ref.code != 0 {
		t.Fatalf("reference import: exit %d: %s", ref.code, ref.stderr)
	}
	want := exported(t, filepath.Join(root, "reference"))
	for i := range c.trials {
		home := trialHome(root, i)
		d := c.delay(ref.took)
		k := runKilled(t, home, d, "import", file, "--embedder", "hash", "--json")
		integrity(t, home)
		total := statsTotal(t, home)
		label := fmt.Sprintf("trial %d (kill after %v of a %v run)", i, d.Round(time.Millisecond), ref.took.Round(time.Millisecond))
		switch {
		case !k.killed && k.code != 0:
			t.Fatalf("%s: exit %d: %s", label, k.code, k.stderr)
		case !k.killed && total != crashImportRecords:
			t.Fatalf("%s: the import finished but %d of %d records are stored", label, total, crashImportRecords)
		case total != 0 && total != crashImportRecords:
			t.Fatalf("%s: a killed import left %d of %d records", label, total, crashImportRecords)
		}
		outcome := map[bool]string{true: "killed", false: "finished"}[k.killed] + fmt.Sprintf(" with %d stored", total)
		t.Logf("%s: %s", label, outcome)
		c.note(map[bool]string{true: "killed", false: "finished"}[k.killed] + map[bool]string{true: " (all)", false: " (none)"}[total > 0])
		if failed := afterCrash(t, home, total); len(failed) > 0 {
			t.Fatalf("%s: doctor after recall: %q", label, failed)
		}
		if swept(t, home, label) {
			c.note("temporary snapshot left, swept")
		}
		if total == 0 {
			ok(t, home, "import", file, "--embedder", "hash")
		}
		if got := exported(t, home); !equalTexts(got, want) {
			t.Fatalf("%s: after the import completed, the records differ from an uninterrupted import's", label)
		}
		os.RemoveAll(home)
	}
}

func equalTexts(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// crashIngest: an ingest stores file after file, each in its own
// transaction: after a kill every file is there with all of its chunks or
// not at all, and ingesting again completes the set exactly.
func crashIngest(t *testing.T, c *crashRun) {
	src := filepath.Join(c.input, "docs")
	if _, err := os.Stat(src); err != nil {
		r := rand.New(rand.NewPCG(8, 8))
		os.MkdirAll(src, 0o755)
		for i := range crashIngestFiles {
			var b strings.Builder
			for s := range 4 {
				fmt.Fprintf(&b, "## Section %d of file %d\n\n%s\n\n", s, i, crashText(r, 120))
			}
			os.WriteFile(filepath.Join(src, fmt.Sprintf("doc%03d.md", i)), []byte(b.String()), 0o644)
		}
	}
	root := t.TempDir()
	args := []string{"ingest", src, "--project", "docs", "--embedder", "hash", "--json"}
	ref := runKilled(t, filepath.Join(root, "reference"), -1, args...)
	if ref.code != 0 {
		t.Fatalf("reference ingest: exit %d: %s", ref.code, ref.stderr)
	}
	want := exported(t, filepath.Join(root, "reference"))
	if len(want) != crashIngestFiles {
		t.Fatalf("reference ingest stored %d files", len(want))
	}
	for i := range c.trials {
		home := trialHome(root, i)
		d := c.delay(ref.took)
		k := runKilled(t, home, d, args...)
		integrity(t, home)
		label := fmt.Sprintf("trial %d (kill after %v of a %v run)", i, d.Round(time.Millisecond), ref.took.Round(time.Millisecond))
		if !k.killed && k.code != 0 {
			t.Fatalf("%s: exit %d: %s", label, k.code, k.stderr)
		}
		got := exported(t, home)
		for uri, texts := range got {
			if !slices.Equal(texts, want[uri]) {
				t.Fatalf("%s: %s has %d chunks, want all %d or none", label, uri, len(texts), len(want[uri]))
			}
		}
		if !k.killed && len(got) != len(want) {
			t.Fatalf("%s: the ingest finished with %d of %d files stored", label, len(got), len(want))
		}
		total := statsTotal(t, home)
		t.Logf("%s: %s with %d of %d files stored", label, map[bool]string{true: "killed", false: "finished"}[k.killed], len(got), len(want))
		switch {
		case !k.killed:
			c.note("finished")
		case len(got) == 0:
			c.note("killed (none)")
		case len(got) == len(want):
			c.note("killed (all)")
		default:
			c.note("killed (some files)")
		}
		if failed := afterCrash(t, home, total); len(failed) > 0 {
			t.Fatalf("%s: doctor after recall: %q", label, failed)
		}
		if swept(t, home, label) {
			c.note("temporary snapshot left, swept")
		}
		ok(t, home, args...)
		if got := exported(t, home); !equalTexts(got, want) {
			t.Fatalf("%s: after ingesting again, the chunks differ from an uninterrupted ingest's", label)
		}
		var again struct{ Files, Unchanged int }
		if again = decode[struct{ Files, Unchanged int }](t, ok(t, home, args...)); again.Unchanged != again.Files {
			t.Fatalf("%s: a third ingest changed files: %+v", label, again)
		}
		os.RemoveAll(home)
	}
}

// crashEmbed: records imported without vectors, then embedded with the
// hashing embedder by cmd (reindex, or sync: pending embedding) and
// killed. Nothing is lost; doctor names sync as the fix when memories are
// left without a vector, and after cmd runs again (resuming), is green.
func crashEmbed(cmd string) func(t *testing.T, c *crashRun) {
	return func(t *testing.T, c *crashRun) { crashEmbedWith(t, c, cmd) }
}

func crashEmbedWith(t *testing.T, c *crashRun, cmd string) {
	file := writeImportFile(t, c.input)
	root := t.TempDir()
	base := filepath.Join(root, "base")
	ok(t, base, "import", file, "--embedder", "none")
	ref := filepath.Join(root, "reference")
	copyHome(t, base, ref)
	r := runKilled(t, ref, -1, cmd, "--embedder", "hash", "--json")
	if r.code != 0 {
		t.Fatalf("reference %s: exit %d: %s", cmd, r.code, r.stderr)
	}
	for i := range c.trials {
		home := trialHome(root, i)
		copyHome(t, base, home)
		d := c.delay(r.took)
		k := runKilled(t, home, d, cmd, "--embedder", "hash", "--json")
		integrity(t, home)
		label := fmt.Sprintf("trial %d (kill after %v of a %v run)", i, d.Round(time.Millisecond), r.took.Round(time.Millisecond))
		if !k.killed && k.code != 0 {
			t.Fatalf("%s: exit %d: %s", label, k.code, k.stderr)
		}
		if total := statsTotal(t, home); total != crashImportRecords {
			t.Fatalf("%s: %d of %d records after the %s", label, total, crashImportRecords, cmd)
		}
		failed := afterCrash(t, home, crashImportRecords)
		outcome := map[bool]string{true: "killed", false: "finished"}[k.killed]
		switch {
		case len(failed) == 0:
			outcome += " (all embedded)"
		case len(failed) == 1 && failed[0] == "vectors: mneme sync" && k.killed:
			outcome += " (some left to embed)"
		default:
			t.Fatalf("%s: doctor after recall: %q", label, failed)
		}
		t.Logf("%s: %s", label, outcome)
		c.note(outcome)
		if swept(t, home, label) {
			c.note("temporary snapshot left, swept")
		}
		if len(failed) > 0 {
			ok(t, home, cmd, "--embedder", "hash")
			if failed := afterCrash(t, home, crashImportRecords); len(failed) > 0 {
				t.Fatalf("%s: doctor after the second %s: %q", label, cmd, failed)
			}
		}
		os.RemoveAll(home)
	}
}

// crashRemember: two loops of remember processes on one home; at a random
// moment the process each loop is running is killed. Every remember that
// exited 0, in this trial and the ones before, is stored; the killed ones
// may or may not be; nothing else is.
func crashRemember(t *testing.T, c *crashRun) {
	home := filepath.Join(t.TempDir(), "home")
	acked := map[string]bool{}   // texts of remember commands that exited 0
	unknown := map[string]bool{} // texts of killed ones
	for i := range c.trials {
		d := time.Duration(150+c.rng.IntN(1500)) * time.Millisecond
		deadline := time.Now().Add(d)
		var mu sync.Mutex
		var wg sync.WaitGroup
		for loop := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := 0; ; n++ {
					text := fmt.Sprintf("trial %d loop %d memory %d about %s", i, loop, n, crashWords[(i+loop+n)%len(crashWords)])
					left := time.Until(deadline)
					if left <= 0 {
						left = 0
					}
					k := runKilled(t, home, left, "remember", text, "--embedder", "hash", "--json")
					mu.Lock()
					switch {
					case k.killed:
						unknown[text] = true
					case k.code == 0:
						acked[text] = true
					default:
						t.Errorf("trial %d: remember: exit %d: %s", i, k.code, k.stderr)
					}
					mu.Unlock()
					if k.killed || time.Now().After(deadline) {
						return
					}
				}
			}()
		}
		wg.Wait()
		integrity(t, home)
		stored := map[string]bool{}
		for _, texts := range exported(t, home) {
			for _, s := range texts {
				stored[s] = true
			}
		}
		for s := range acked {
			if !stored[s] {
				t.Fatalf("trial %d (kill after %v): an acknowledged remember is missing: %q", i, d, s)
			}
		}
		for s := range stored {
			if !acked[s] && !unknown[s] {
				t.Fatalf("trial %d: a record nobody wrote: %q", i, s)
			}
		}
		t.Logf("trial %d (kill after %v): %d acknowledged so far, %d killed", i, d, len(acked), len(unknown))
		if failed := afterCrash(t, home, len(stored)); len(failed) > 0 {
			t.Fatalf("trial %d: doctor after recall: %q", i, failed)
		}
		if swept(t, home, fmt.Sprintf("trial %d", i)) {
			c.note("temporary snapshot left, swept")
		}
	}
	c.add("remember acknowledged", len(acked))
	c.add("remember killed", len(unknown))
}
