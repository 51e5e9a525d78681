package main_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	memory "github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/damage"
	"github.com/mneme-ai/mneme/sqlite"
)

type doctorJSON struct {
	Schema string
	OK     bool
	Checks []struct {
		ID, Name, Detail, Fix string
		OK, Warn, Absent      bool
	}
	Lanes []laneJSON
}

type laneJSON struct {
	ID               string
	Status           string
	Required         bool
	RequiredCheckIDs []string `json:"required_check_ids"`
	DegradedCheckIDs []string `json:"degraded_check_ids"`
}

func (d doctorJSON) lane(id string) laneJSON {
	for _, l := range d.Lanes {
		if l.ID == id {
			return l
		}
	}
	return laneJSON{Status: "missing lane " + id}
}

func (d doctorJSON) check(name string) (ok bool, detail, fix string) {
	for _, c := range d.Checks {
		if c.Name == name {
			return c.OK, c.Detail, c.Fix
		}
	}
	return false, "missing check " + name, ""
}

func TestDoctor(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "a memory without a vector", "--embedder", "none")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json")); !d.OK {
		t.Fatalf("healthy home: %+v", d)
	}
	r := mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d := decode[doctorJSON](t, r.stdout)
	// Memories without a vector wait for one (pending): `mneme sync` embeds
	// them (before pending embedding, the fix named was reindex). Hybrid
	// recall is degraded, which exits 0 (the caller decides); --strict
	// fails on any failed check.
	if fine, _, fix := d.check("vectors"); r.code != 0 || fine || fix != "mneme sync" || !degraded(d, "recall-hybrid", "vectors") {
		t.Fatalf("unembedded home: exit %d, %+v", r.code, d)
	}
	if r := mneme(t, home, "", "doctor", "--embedder", "hash", "--strict"); r.code != 1 {
		t.Fatalf("doctor --strict with a failed check: exit %d", r.code)
	}
	ok(t, home, "reindex", "--embedder", "hash")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "hash", "--json")); !d.OK {
		t.Fatalf("after reindex: %+v", d)
	}
	os.WriteFile(filepath.Join(home, "lexical.idx"), []byte("garbage"), 0o600)
	r = mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d = decode[doctorJSON](t, r.stdout)
	if fine, detail, _ := d.check("lexical index"); r.code != 0 || fine || !strings.Contains(detail, "rebuilt on the next recall") || !degraded(d, "recall-lexical", "lexical-index") {
		t.Fatalf("corrupt snapshot: exit %d, %+v", r.code, d)
	}
	os.WriteFile(filepath.Join(home, "vectors.idx"), []byte("garbage"), 0o600)
	r = mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d = decode[doctorJSON](t, r.stdout)
	if fine, detail, _ := d.check("vector index"); r.code != 0 || fine || !strings.Contains(detail, "rebuilt on the next recall") || !degraded(d, "recall-hybrid", "vector-index", "lexical-index") {
		t.Fatalf("corrupt vector snapshot: exit %d, %+v", r.code, d)
	}
	ok(t, home, "recall", "memory", "--embedder", "hash")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "hash", "--json")); !d.OK {
		t.Fatalf("after recall rebuilt the indexes: %+v", d)
	}
}

// degraded reports whether lane id of d is degraded by exactly the failed
// checks ids, each one of its required checks and failed in d.
func degraded(d doctorJSON, id string, ids ...string) bool {
	l := d.lane(id)
	if l.Status != "degraded" || strings.Join(l.DegradedCheckIDs, ",") != strings.Join(ids, ",") {
		return false
	}
	for _, c := range ids {
		failed := false
		for _, ch := range d.Checks {
			failed = failed || ch.ID == c && !ch.OK
		}
		if !failed || !slices.Contains(l.RequiredCheckIDs, c) {
			return false
		}
	}
	return true
}

// TestDoctorFileModes: a data directory open to other users is a warning
// and a file they can read a failure, each with the chmod that fixes it.
func TestDoctorFileModes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "my home")
	ok(t, home, "remember", "a private memory", "--embedder", "none")
	if fine, detail, _ := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json")).check("file modes"); !fine {
		t.Fatalf("a home mneme made: %s", detail)
	}
	modes := func(d doctorJSON) (ok, warn bool, detail, fix string) {
		for _, c := range d.Checks {
			if c.Name == "file modes" {
				return c.OK, c.Warn, c.Detail, c.Fix
			}
		}
		t.Fatalf("no file modes check: %+v", d)
		return
	}
	os.Chmod(home, 0o755)
	d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json"))
	if fine, warn, detail, fix := modes(d); !d.OK || !fine || !warn || !strings.Contains(detail, "(0755)") || fix != `chmod 700 "$MNEME_HOME"` {
		t.Fatalf("open directory: %+v", d)
	}
	if out := ok(t, home, "doctor", "--embedder", "none"); !strings.Contains(out, "warn file modes") {
		t.Fatalf("open directory, text:\n%s", out)
	}
	db := filepath.Join(home, "mneme.db")
	os.Chmod(db, 0o644)
	r := mneme(t, home, "", "doctor", "--embedder", "none", "--json")
	fine, warn, detail, fix := modes(decode[doctorJSON](t, r.stdout))
	// SQLite gives the WAL and shared-memory files the database's mode:
	// they are named, and fixed with it.
	want := `chmod 700 "$MNEME_HOME" && chmod 600 "$MNEME_HOME"/mneme.db`
	if r.code != 1 || fine || warn || !strings.Contains(detail, "mneme.db (0644), mneme.db-shm (0644), mneme.db-wal (0644)") || fix != want {
		t.Fatalf("readable database: exit %d, %q, fix %q (want %q)", r.code, detail, fix, want)
	}
	// No absolute paths in doctor's output, and the fix runs as shown.
	sh := exec.Command("sh", "-c", fix)
	sh.Env = append(os.Environ(), "MNEME_HOME="+home)
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", fix, err, out)
	}
	if fine, warn, detail, _ := modes(decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json"))); !fine || warn {
		t.Fatalf("after the fix: %s", detail)
	}
	// A data directory under the user's home, given by --home: the fix
	// names it from ~.
	os.Chmod(home, 0o755)
	user := filepath.Dir(home)
	r = mnemeEnv(t, home, "", []string{"MNEME_HOME=", "HOME=" + user}, "doctor", "--home", home, "--embedder", "none", "--json")
	if _, _, _, fix := modes(decode[doctorJSON](t, r.stdout)); fix != "chmod 700 ~/'my home'" {
		t.Fatalf("--home under ~: fix %q", fix)
	}
	sh = exec.Command("sh", "-c", "chmod 700 ~/'my home'")
	sh.Env = append(os.Environ(), "HOME="+user)
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	// Files that are not mneme's, and a config.json with nothing secret,
	// are no one's risk; the failure says what others could read.
	os.Chmod(home, 0o700)
	os.WriteFile(filepath.Join(home, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"none"}}`), 0o644)
	if fine, warn, detail, _ := modes(decode[doctorJSON](t, ok(t, home, "doctor", "--json"))); !fine || warn {
		t.Fatalf("a readable notes.txt and a config.json without secrets: %s", detail)
	}
	os.Chmod(db, 0o644)
	r = mneme(t, home, "", "doctor", "--json")
	if _, _, detail, _ := modes(decode[doctorJSON](t, r.stdout)); r.code != 1 || strings.Contains(detail, "secret records in clear") || strings.Contains(detail, "notes.txt") || !strings.Contains(detail, "1 memory") {
		t.Fatalf("a readable database without secret records: exit %d, %q", r.code, detail)
	}
	os.Chmod(db, 0o600)
	ok(t, home, "remember", "--sensitivity", "secret", "the vault PIN is kept offline")
	os.Chmod(db, 0o644)
	r = mneme(t, home, "", "doctor", "--json")
	if _, _, detail, _ := modes(decode[doctorJSON](t, r.stdout)); r.code != 1 || !strings.Contains(detail, "1 secret") {
		t.Fatalf("a readable database with a secret record: exit %d, %q", r.code, detail)
	}
	os.Chmod(db, 0o600)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"none"},"server":{"tokens":[{"name":"ci","token":"s3cr3t-token-value-123","access":"read"}]}}`), 0o644)
	r = mneme(t, home, "", "doctor", "--json")
	if fine, _, detail, fix := modes(decode[doctorJSON](t, r.stdout)); r.code != 1 || fine || !strings.Contains(detail, "config.json (0644)") || !strings.Contains(detail, "token") || !strings.Contains(fix, "config.json") {
		t.Fatalf("a readable config.json holding a token: exit %d, %q, fix %q", r.code, detail, fix)
	}
}

// TestDoctorDamagedFile: a damaged page out of the way of every count
// (the embedding cache) fails the quick and the deep check, which name
// the fixes; a lost database fails the database check, saying so.
func TestDoctorDamagedFile(t *testing.T) {
	home := t.TempDir()
	var lines strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&lines, `{"project":"p","text":"memory %d about the release train"}`+"\n", i)
	}
	if r := mneme(t, home, lines.String(), "import", "-", "--embedder", "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	ok(t, home, "doctor", "--embedder", "hash", "--deep")
	if _, _, err := damage.Page(filepath.Join(home, "mneme.db"), "embedding_cache"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"--deep"}} {
		r := mneme(t, home, "", append([]string{"doctor", "--embedder", "hash", "--json"}, args...)...)
		d := decode[doctorJSON](t, r.stdout)
		fine, detail, fix := d.check("database file")
		if dbOK, _, _ := d.check("database"); r.code != 1 || fine || !dbOK || !strings.Contains(detail, "is damaged") || !strings.Contains(fix, "mneme repair") {
			t.Fatalf("doctor %v on a damaged file: exit %d, %+v", args, r.code, d)
		}
	}
	r := mneme(t, home, "", "doctor", "--embedder", "hash")
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL database file") || !strings.Contains(r.stdout, "fix: restore your last export") {
		t.Fatalf("doctor text: exit %d\n%s", r.code, r.stdout)
	}
	os.Truncate(filepath.Join(home, "mneme.db"), 0)
	r = mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	if fine, detail, _ := decode[doctorJSON](t, r.stdout).check("database"); r.code != 1 || fine || !strings.Contains(detail, "memories were lost") {
		t.Fatalf("doctor on a lost database: exit %d, %s", r.code, r.stdout)
	}
	if r := mneme(t, home, "", "list"); r.code != 1 || !strings.Contains(r.stderr, "is empty (0 bytes), but this data directory held a mneme database") {
		t.Fatalf("list on a lost database: exit %d, %s", r.code, r.stderr)
	}
}

// TestDoctorCredentials: `doctor --deep` warns of a stored memory that
// shows a credential outside its text, as an older version wrote it (it
// checked only the title and text), naming the memory and the field but
// not the credential; the quick check does not read every memory.
func TestDoctorCredentials(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "a clean memory", "--embedder", "none")
	deep := func() (warn bool, detail, fix string) {
		d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--deep", "--json"))
		for _, c := range d.Checks {
			if c.Name == "credentials" {
				if !c.OK {
					t.Fatalf("the credentials check failed: %+v", c)
				}
				return c.Warn, c.Detail, c.Fix
			}
		}
		t.Fatalf("no credentials check: %+v", d)
		return
	}
	if warn, detail, _ := deep(); warn {
		t.Fatalf("a clean home: %s", detail)
	}
	ctx := context.Background()
	s, err := sqlite.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	token := "gh" + "p_" + "Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf4Ds6Aw0Pe8Yu2Ti"
	old := &memory.Record{Project: "default", Type: memory.Semantic, Status: memory.Active, Sensitivity: memory.Internal,
		Text: "deploy notes", Tags: []string{"ops", "token=" + token}}
	if _, err := s.Put(ctx, []*memory.Record{old}, memory.ModeRemember, time.Now()); err != nil {
		t.Fatal(err)
	}
	s.Close()
	warn, detail, fix := deep()
	if !warn || !strings.Contains(detail, old.ID+" (tags[1]: ") || strings.Contains(strings.ToLower(detail), strings.ToLower(token)) || !strings.Contains(fix, "--sensitivity secret") {
		t.Fatalf("doctor --deep: warn %v, %s (fix: %s)", warn, detail, fix)
	}
	if _, detail, _ := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json")).check("credentials"); detail != "missing check credentials" {
		t.Fatal("the quick check read every memory")
	}
	ok(t, home, "update", old.ID, "--sensitivity", "secret")
	if warn, detail, _ := deep(); warn {
		t.Fatalf("after the fix: %s", detail)
	}
}
