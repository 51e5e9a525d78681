package main_test

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/damage"
)

type repairJSON struct {
	From, To                     string
	Records, Vectors, Unembedded int
	Documents                    int
	Cached                       int `json:"cached_embeddings"`
	UnreadableRecords            int `json:"unreadable_records"`
	UnreadableRows               int `json:"unreadable_rows"`
}

func dirSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = sha256.Sum256(data)
	}
	return out
}

// quickCheck runs PRAGMA quick_check on a closed database and returns its
// first line (or error).
func quickCheck(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var line string
	if err := db.QueryRow("PRAGMA quick_check").Scan(&line); err != nil {
		return err.Error()
	}
	return line
}

// TestRepair: a home with a damaged page of records is repaired into a new
// one holding every other record (ids, links, vectors), the documents and
// the config; the damaged home is left as it was, and the output says how
// to switch.
func TestRepair(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(home, 0o700)
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash","dim":32}}`), 0o600)
	var lines strings.Builder
	const n = 3000
	for i := range n {
		link := ""
		if i > 0 {
			link = fmt.Sprintf(`,"links":[{"type":"follows","target":"0192f0c1-6b0e-7c3a-9d2e-%012d"}]`, i-1)
		}
		fmt.Fprintf(&lines, `{"id":"0192f0c1-6b0e-7c3a-9d2e-%012d","project":"p","text":"memory %d about the release train"%s}`+"\n", i, i, link)
	}
	if r := mneme(t, home, lines.String(), "import", "-"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	docs := t.TempDir()
	for i := range 5 {
		os.WriteFile(filepath.Join(docs, fmt.Sprintf("d%d.md", i)), []byte(fmt.Sprintf("# Doc %d\n\nBody %d.\n", i, i)), 0o600)
	}
	ok(t, home, "ingest", docs)
	total := decode[struct{ Total int }](t, ok(t, home, "stats", "--json")).Total
	db := filepath.Join(home, "mneme.db")
	if line := quickCheck(t, db); line != "ok" {
		t.Fatalf("before the damage: %s", line)
	}
	_, cells, err := damage.Page(db, "records")
	if err != nil {
		t.Fatal(err)
	}
	if line := quickCheck(t, db); line == "ok" {
		t.Fatal("quick_check missed the damage")
	}
	before := dirSums(t, home)

	to := filepath.Join(t.TempDir(), "new home")
	r := mneme(t, home, "", "repair", "--to", to, "--json")
	res := decode[repairJSON](t, r.stdout)
	if r.code != 0 || res.UnreadableRecords != cells || res.Records != total-cells || res.Documents != 5 || res.Vectors != res.Records || res.To != to {
		t.Fatalf("repair: exit %d, %+v (%d rows on the damaged page, %d records); %s", r.code, res, cells, total, r.stderr)
	}
	if after := dirSums(t, home); !reflect.DeepEqual(after, before) {
		t.Fatal("repair changed the damaged home")
	}
	ok(t, to, "doctor", "--deep")
	if got := decode[struct{ Total int }](t, ok(t, to, "stats", "--json")).Total; got != res.Records {
		t.Fatalf("the new home holds %d records, want %d", got, res.Records)
	}
	last := fmt.Sprintf("0192f0c1-6b0e-7c3a-9d2e-%012d", n-1)
	if rec := decode[map[string]any](t, ok(t, to, "get", last, "--json")); fmt.Sprint(rec["links"]) != fmt.Sprintf("[map[target:0192f0c1-6b0e-7c3a-9d2e-%012d type:follows]]", n-2) {
		t.Fatalf("the last record in the new home: %v", rec)
	}
	if out := ok(t, to, "ingest", docs); !strings.HasPrefix(out, "5 files: 5 unchanged") {
		t.Fatalf("ingesting the same documents again: %s", out)
	}

	// Text, and the default destination beside the home.
	r = mneme(t, home, "", "repair")
	def := home + ".repaired"
	for _, want := range []string{"saved ", " records (", "could not read " + fmt.Sprint(cells) + " records",
		home + " was left as it was", "--home " + def, "MNEME_HOME=" + def, "mneme doctor --home " + def} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("repair text: exit %d, want %q in\n%s%s", r.code, want, r.stdout, r.stderr)
		}
	}
	if r := mneme(t, home, "", "repair", "--to", to); r.code != 2 || !strings.Contains(r.stderr, "is not empty") {
		t.Fatalf("repair into a used directory: exit %d, %s", r.code, r.stderr)
	}
}
