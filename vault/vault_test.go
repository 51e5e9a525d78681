package vault_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
	"github.com/mneme-ai/mneme/vault"
)

var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

var ctx = context.Background()

func engine(t testing.TB) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, _ := hash.New(64)
	return mneme.NewEngine(s, mneme.WithClock(func() time.Time { return now }), mneme.WithEmbedder(em))
}

func at(days int) *time.Time { t := now.AddDate(0, 0, -days); return &t }

// records is a set that exercises every field the front matter carries.
func records() []*mneme.Record {
	a, b := mneme.NewID(now), mneme.NewID(now)
	return []*mneme.Record{
		{ID: a, Text: "Postgres is the production store.\nSQLite is for laptops.", Title: "Store choice", Kind: "decision", Tags: []string{"db", "infra"},
			Provenance: mneme.Verified, Meta: json.RawMessage(`{"ticket":"ENG-1","aliases":["Store ADR"],"n":2}`), Source: &mneme.Source{URI: "docs/adr.md", LineStart: 3, LineEnd: 9}},
		{ID: b, Text: "Run `make deploy` after the tests pass.\n\n", Type: mneme.Procedural, Key: "deploy", OccurredAt: at(2), ExpiresAt: &now,
			Links: []mneme.Link{{Type: mneme.LinkRelatesTo, Target: a}, {Type: mneme.LinkDerivedFrom, Target: a}}, SessionID: "s1", RunID: "r1", Speaker: "ana"},
		{Text: "  Indented text: with \"quotes\", a # hash, tabs\tand émojis 🎉", Title: "Title: with \"quotes\"\nand a second line", Kind: "../../etc", Project: "p2", Tags: []string{"yes", "12", "a b"}},
		{Text: "--- not front matter\n# not a heading", Title: "../../../escape", Type: mneme.Episodic, Status: mneme.Draft, Sensitivity: mneme.Public},
		{Text: "the launch code is 0000", Sensitivity: mneme.Secret, Kind: "note"},
	}
}

func seed(t testing.TB, eng *mneme.Engine, recs []*mneme.Record) {
	t.Helper()
	if _, err := eng.Import(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func export(t testing.TB, eng *mneme.Engine, dir string, clearance mneme.Sensitivity) vault.ExportResult {
	t.Helper()
	res, err := vault.Export(ctx, eng, dir, mneme.Filter{Clearance: clearance, IncludeSuperseded: true, IncludeExpired: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func importVault(t testing.TB, eng *mneme.Engine, dir string, o vault.ImportOptions) vault.ImportResult {
	t.Helper()
	res, err := vault.Import(ctx, eng, dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// tree is every file under dir, by slash path.
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return err
	})
	return out
}

func sameTree(t *testing.T, a, b map[string]string) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for p, s := range a {
		if b[p] != s {
			t.Fatalf("%s differs:\n%s\n---\n%s", p, s, b[p])
		}
	}
}

func TestRoundTripIsByteIdentical(t *testing.T) {
	for _, clearance := range []mneme.Sensitivity{mneme.Internal, mneme.Secret} {
		src, dst := engine(t), engine(t)
		seed(t, src, records())
		d1, d2 := t.TempDir(), t.TempDir()
		if res := export(t, src, d1, clearance); res.Written != res.Records {
			t.Fatalf("first export = %+v", res)
		}
		first := importVault(t, dst, d1, vault.ImportOptions{})
		if first.Inserted != first.Files {
			t.Fatalf("import = %+v", first)
		}
		export(t, dst, d2, clearance)
		sameTree(t, tree(t, d1), tree(t, d2))
		if again := importVault(t, dst, d1, vault.ImportOptions{}); again.Unchanged != again.Files {
			t.Fatalf("second import = %+v", again)
		}
		secret := strings.Contains(strings.Join(values(tree(t, d1)), ""), "launch code")
		if secret != (clearance == mneme.Secret) {
			t.Fatalf("clearance %s: secret record exported = %v", clearance, secret)
		}
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestFilesStayInsideTheVault(t *testing.T) {
	eng := engine(t)
	seed(t, eng, records())
	parent := t.TempDir()
	dir := filepath.Join(parent, "vault")
	export(t, eng, dir, mneme.Secret)
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Fatalf("export wrote beside the vault: %v", entries)
	}
	for p := range tree(t, dir) {
		if strings.Contains(p, "..") {
			t.Fatalf("path %q", p)
		}
	}
}

func TestWikilinksNameTheLinkedFile(t *testing.T) {
	eng := engine(t)
	recs := records()
	seed(t, eng, recs)
	dir := t.TempDir()
	export(t, eng, dir, mneme.Internal)
	files := tree(t, dir)
	var target, linking string
	for p, s := range files {
		if strings.Contains(s, "id: "+recs[0].ID) {
			target = strings.TrimSuffix(filepath.Base(p), ".md")
		}
		if strings.Contains(s, "id: "+recs[1].ID) {
			linking = s
		}
	}
	if !strings.Contains(linking, "relates_to:\n  - \"[["+target+"]]\"") {
		t.Fatalf("no wikilink to %s in:\n%s", target, linking)
	}
	if !strings.HasPrefix(target, "store-choice-") {
		t.Fatalf("file name %q is not a slug of the title", target)
	}
}

func TestReexportWritesOnlyChangedFiles(t *testing.T) {
	eng := engine(t)
	recs := records()
	seed(t, eng, recs)
	dir := t.TempDir()
	export(t, eng, dir, mneme.Internal)
	if res := export(t, eng, dir, mneme.Internal); res.Written != 0 || res.Unchanged != res.Records {
		t.Fatalf("re-export with nothing changed = %+v", res)
	}
	// A file edited in the vault since the export is read (not trusted
	// to the manifest) and written back as the store has it.
	for p, s := range tree(t, dir) {
		if strings.Contains(s, "id: "+recs[0].ID) {
			os.WriteFile(filepath.Join(dir, p), []byte(strings.Replace(s, "laptops", "phones", 1)), 0o644)
		}
	}
	if res := export(t, eng, dir, mneme.Internal); res.Written != 1 {
		t.Fatalf("re-export after an edit in the vault = %+v", res)
	}
	if _, err := eng.Patch(ctx, recs[0].ID, mneme.Patch{Tags: &[]string{"db"}}, mneme.Internal); err != nil {
		t.Fatal(err)
	}
	if res := export(t, eng, dir, mneme.Internal); res.Written != 1 {
		t.Fatalf("re-export with one change = %+v", res)
	}
	if _, err := eng.Forget(ctx, mneme.ForgetRequest{IDs: []string{recs[1].ID}}); err != nil {
		t.Fatal(err)
	}
	if res := export(t, eng, dir, mneme.Internal); res.Removed != 1 {
		t.Fatalf("re-export after a forget = %+v", res)
	}
}

func TestEditsNewFilesAndDeletions(t *testing.T) {
	eng := engine(t)
	recs := records()
	seed(t, eng, recs)
	dir := t.TempDir()
	export(t, eng, dir, mneme.Internal)
	files := tree(t, dir)
	for p, s := range files {
		switch {
		case strings.Contains(s, "id: "+recs[0].ID):
			os.WriteFile(filepath.Join(dir, p), []byte(strings.Replace(s, "SQLite is for laptops.", "SQLite is for laptops and CI.", 1)), 0o644)
		case strings.Contains(s, "id: "+recs[1].ID):
			os.Remove(filepath.Join(dir, p))
		}
	}
	os.MkdirAll(filepath.Join(dir, "kb"), 0o755)
	os.WriteFile(filepath.Join(dir, "kb", "hand.md"), []byte("# Hand written\n\nKnowledge from the docs folder.\n"), 0o644)
	res := importVault(t, eng, dir, vault.ImportOptions{Project: "kb"})
	if res.Updated != 1 || res.Inserted != 1 || res.Deleted != 1 || res.Forgotten != 0 {
		t.Fatalf("import = %+v", res)
	}
	got, _ := eng.Get(ctx, recs[0].ID, mneme.Internal)
	if !strings.HasSuffix(got.Text, "laptops and CI.") || !got.UpdatedAt.Equal(now) {
		t.Fatalf("edited record = %q updated %v", got.Text, got.UpdatedAt)
	}
	if _, err := eng.Get(ctx, recs[1].ID, mneme.Internal); err != nil {
		t.Fatalf("a deleted file forgot its record without --sync: %v", err)
	}
	if again := importVault(t, eng, dir, vault.ImportOptions{Project: "kb"}); again.Inserted+again.Updated != 0 {
		t.Fatalf("importing twice = %+v", again)
	}
	if res := importVault(t, eng, dir, vault.ImportOptions{Project: "kb", Sync: true}); res.Forgotten != 1 {
		t.Fatalf("import --sync = %+v", res)
	}
	if _, err := eng.Get(ctx, recs[1].ID, mneme.Internal); mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("--sync kept the deleted file's record: %v", err)
	}
	// The hand-written note keeps its file on export, now with front matter.
	export(t, eng, dir, mneme.Internal)
	if s := tree(t, dir)["kb/hand.md"]; !strings.HasPrefix(s, "---\nid: ") || !strings.Contains(s, "project: kb") {
		t.Fatalf("hand-written note after export:\n%s", s)
	}
	if res := importVault(t, eng, dir, vault.ImportOptions{}); res.Unchanged != res.Files {
		t.Fatalf("import after export = %+v", res)
	}
}

func TestBadInputWritesNothing(t *testing.T) {
	huge := "---\nid: 01a21bfb-de12-7075-b281-4eb379831d4b\n---\n\n# x\n\n" + strings.Repeat("a", vault.MaxFileBytes)
	cases := []struct {
		name  string
		setup func(dir string)
		want  []string
	}{
		{"malformed front matter", func(d string) { write(d, "a/bad.md", "---\nid: x\n  indented: y\n---\n\n# t\n\ntext\n") }, []string{"a/bad.md", "line 3"}},
		{"unclosed front matter", func(d string) { write(d, "open.md", "---\nkind: note\n\ntext\n") }, []string{"open.md", "line 1", "closing"}},
		{"unknown key", func(d string) { write(d, "k.md", "---\nkind: note\ncolour: x\n---\n\ntext\n") }, []string{"k.md", "line 3", "colour"}},
		{"bad time", func(d string) { write(d, "t.md", "---\ncreated: yesterday\n---\n\ntext\n") }, []string{"t.md", "line 2", "created"}},
		{"invalid record", func(d string) { write(d, "v.md", "---\ntype: dream\n---\n\ntext\n") }, []string{"v.md", "dream"}},
		{"dangling link", func(d string) { write(d, "l.md", "---\nrelates_to:\n  - \"[[nowhere]]\"\n---\n\ntext\n") }, []string{"l.md", "line 2", "nowhere"}},
		{"file over 1 MiB", func(d string) { write(d, "big.md", huge) }, []string{"big.md", "1 MiB"}},
		{"invalid UTF-8", func(d string) { write(d, "u.md", "# ok\n\nline two\n\xff\xfe\n") }, []string{"u.md", "line 4", "UTF-8"}},
		{"duplicate id", func(d string) {
			s := "---\nid: 01a21bfb-de12-7075-b281-4eb379831d4b\n---\n\n# x\n\ntext\n"
			write(d, "one.md", s)
			write(d, "two.md", s)
		}, []string{"two.md", "one.md", "01a21bfb-de12-7075-b281-4eb379831d4b"}},
		{"symlink out of the folder", func(d string) {
			out := filepath.Join(filepath.Dir(d), "outside.md")
			os.WriteFile(out, []byte("# secret\n\nfrom outside\n"), 0o644)
			os.Symlink(out, filepath.Join(d, "link.md"))
		}, []string{"link.md", "symbolic link out of the vault"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eng := engine(t)
			dir := filepath.Join(t.TempDir(), "vault")
			os.MkdirAll(dir, 0o755)
			write(dir, "good.md", "# Good\n\nA good note.\n")
			c.setup(dir)
			before := tree(t, dir)
			_, err := vault.Import(ctx, eng, dir, vault.ImportOptions{})
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not say %q", err, w)
				}
			}
			if n := count(t, eng); n != 0 {
				t.Fatalf("%d records written", n)
			}
			sameTree(t, before, tree(t, dir))
		})
	}
}

func write(dir, rel, s string) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(s), 0o644)
}

func count(t testing.TB, eng *mneme.Engine) int {
	n := 0
	eng.Each(ctx, mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true}, func(*mneme.Record) error { n++; return nil })
	return n
}

// TestObsidianProperties: Obsidian's aliases and cssclasses are read into
// the record's meta and written back as properties, where Obsidian shows
// them.
func TestObsidianProperties(t *testing.T) {
	eng := engine(t)
	src := t.TempDir()
	write(src, "deploy.md", "---\naliases: [Deploy guide, deploy]\ncssclasses: wide\nmeta: {\"team\": \"ops\"}\n---\n\n# Deploy\n\nRun it.\n")
	importVault(t, eng, src, vault.ImportOptions{Project: "kb"})
	var rec *mneme.Record
	eng.Each(ctx, mneme.Filter{Project: "kb"}, func(r *mneme.Record) error { rec = r; return nil })
	if rec == nil || string(rec.Meta) != `{"team":"ops","aliases":["Deploy guide","deploy"],"cssclasses":["wide"]}` {
		t.Fatalf("record = %+v", rec)
	}
	out := t.TempDir()
	export(t, eng, out, mneme.Internal)
	all := strings.Join(values(tree(t, out)), "")
	for _, want := range []string{"aliases:\n  - Deploy guide\n  - deploy\n", "cssclasses:\n  - wide\n", `meta: {"team":"ops"}`} {
		if !strings.Contains(all, want) {
			t.Errorf("export lacks %q:\n%s", want, all)
		}
	}
}

// TestReexportSeesEditsItSkips: a re-export renders and reads only what
// changed, yet a file edited by hand since the last export is put back as
// the store has it, even when its modification time was set back to
// before the manifest (a copy that keeps times, touch -d); and a note
// whose link target the caller can no longer read loses the link, though
// the note's own record did not change.
func TestReexportSeesEditsItSkips(t *testing.T) {
	eng := engine(t)
	recs := records()
	seed(t, eng, recs)
	dir := t.TempDir()
	export(t, eng, dir, mneme.Internal)
	fileOf := func(id string) string {
		for p, s := range tree(t, dir) {
			if strings.Contains(s, "id: "+id+"\n") {
				return p
			}
		}
		t.Fatalf("no file holds %s", id)
		return ""
	}
	p := filepath.Join(dir, fileOf(recs[0].ID))
	want, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(want), "laptops", "phones", 1)), 0o644)
	old := now.Add(-24 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if res := export(t, eng, dir, mneme.Internal); res.Written != 1 || res.Unchanged != res.Records-1 {
		t.Fatalf("re-export after a back-dated edit = %+v", res)
	}
	if got, _ := os.ReadFile(p); string(got) != string(want) {
		t.Fatalf("the edited file is now:\n%s\nwant:\n%s", got, want)
	}
	// A caller limited to a project, without clearance secret.
	const target, linker = "0192f0c1-6b0e-7c3a-9d2e-00000000000a", "0192f0c1-6b0e-7c3a-9d2e-00000000000b"
	seed(t, eng, []*mneme.Record{{ID: target, Project: "alpha", Text: "alpha's launch checklist"},
		{ID: linker, Project: "alpha", Text: "notes on the launch", Links: []mneme.Link{{Type: mneme.LinkRelatesTo, Target: target}}}})
	scoped := mneme.WithScope(ctx, mneme.Scope{Name: "alpha", Projects: []string{"alpha"}, Clearance: mneme.Internal})
	alpha := t.TempDir()
	if _, err := vault.Export(scoped, eng, alpha, mneme.Filter{Project: "alpha"}); err != nil {
		t.Fatal(err)
	}
	secret := mneme.Secret
	if _, err := eng.Patch(ctx, target, mneme.Patch{Sensitivity: &secret}, mneme.Secret); err != nil {
		t.Fatal(err)
	}
	res, err := vault.Export(scoped, eng, alpha, mneme.Filter{Project: "alpha"})
	if err != nil || res.Written != 1 || res.Removed != 1 {
		t.Fatalf("re-export after a link target turned secret = %+v, %v", res, err)
	}
	for _, body := range tree(t, alpha) {
		if strings.Contains(body, "relates_to") || strings.Contains(body, target) {
			t.Fatalf("the vault still names the secret record:\n%s", body)
		}
	}
}
