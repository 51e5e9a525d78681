package importers_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/importers"
	"github.com/mneme-ai/mneme/sqlite"
)

// Fixtures in testdata follow each tool's documented format: the MCP
// memory server's memory.jsonl, mem0's get_all output, basic-memory's note
// format, Engram's ExportData, and the common shape of a vector-memory
// layer's records.jsonl.
var cases = []struct {
	format, path string
	types        map[string]int
	metaHas      []string // strings the records' meta must keep (unknown fields among them)
	links        int
}{
	{"mcp-memory", "mcp-memory.jsonl", map[string]int{"semantic": 3}, []string{`"works_at"`, `"entity_type":"person"`}, 2},
	{"mem0", "mem0.json", map[string]int{"semantic": 2}, []string{`"immutable":false`, `"user_id":"arjun"`, `"type":"preference"`}, 0},
	{"basic-memory", "basic-memory", map[string]int{"semantic": 2}, []string{`"status":"active"`, `"category":"technique"`, `"requires"`}, 2},
	{"engram", "engram.json", map[string]int{"semantic": 2, "episodic": 2}, []string{`"revision_count":2`, `"tool_name":"Edit"`, `"engram_project":"my-app"`}, 0},
	{"records-jsonl", "records.jsonl", map[string]int{"semantic": 3, "episodic": 1}, []string{`"severity":"medium"`, `"to_agent":"reviewer"`, `"phase":"review"`}, 0},
}

func engine(t *testing.T) *mneme.Engine {
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return mneme.NewEngine(s)
}

func parse(t *testing.T, format, path string) []*mneme.Record {
	t.Helper()
	f, ok := importers.Lookup(format)
	if !ok {
		t.Fatalf("no format %s", format)
	}
	in, err := importers.Read(f, filepath.Join("testdata", path), "imported")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := f.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestFormats(t *testing.T) {
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			recs := parse(t, c.format, c.path)
			counts := importers.Count(recs)
			for typ, n := range c.types {
				if counts.Types[typ] != n {
					t.Fatalf("types %v, want %v", counts.Types, c.types)
				}
			}
			var metas strings.Builder
			links := 0
			for _, r := range recs {
				metas.Write(r.Meta)
				links += len(r.Links)
				if r.Project != "imported" {
					t.Fatalf("project %q", r.Project)
				}
			}
			for _, want := range c.metaHas {
				if !strings.Contains(metas.String(), want) {
					t.Errorf("meta does not keep %s:\n%s", want, metas.String())
				}
			}
			if links != c.links {
				t.Errorf("%d links, want %d", links, c.links)
			}
			// Importing twice changes nothing.
			eng := engine(t)
			first, err := eng.Import(context.Background(), recs, mneme.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			again, err := eng.Import(context.Background(), parse(t, c.format, c.path), mneme.WriteOptions{})
			if err != nil || first.Inserted != len(recs) || again.Inserted+again.Updated != 0 {
				t.Fatalf("import %+v, then %+v (%v)", first, again, err)
			}
		})
	}
}

// TestWrongFormat: each importer fed another tool's file says so, naming
// the file (and line).
func TestWrongFormat(t *testing.T) {
	for _, c := range cases {
		for _, other := range cases {
			if other.format == c.format || other.path == "basic-memory" || c.format == "basic-memory" {
				continue
			}
			f, _ := importers.Lookup(c.format)
			in, err := importers.Read(f, filepath.Join("testdata", other.path), "imported")
			if err == nil {
				_, err = f.Parse(in)
			}
			if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), filepath.Base(other.path)) {
				t.Errorf("--from %s on %s: %v", c.format, other.path, err)
			}
		}
	}
	f, _ := importers.Lookup("basic-memory")
	if _, err := importers.Read(f, filepath.Join("testdata", "mem0.json"), "p"); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Errorf("basic-memory on a file: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.json"), []byte("{}"), 0o644)
	in, _ := importers.Read(f, dir, "p")
	if _, err := f.Parse(in); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Errorf("basic-memory on a folder without notes: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"type":"entity","name":"a","entityType":"x","observations":["o"]}`+"\n"+`{"type":"relation","from":"a","to":"nobody","relationType":"knows"}`+"\n"), 0o644)
	m, _ := importers.Lookup("mcp-memory")
	in, _ = importers.Read(m, bad, "p")
	if _, err := m.Parse(in); err == nil || !strings.Contains(err.Error(), "bad.jsonl: line 2") {
		t.Errorf("a relation to no entity: %v", err)
	}
}

func TestMetaIsJSON(t *testing.T) {
	for _, c := range cases {
		for _, r := range parse(t, c.format, c.path) {
			var m map[string]any
			if err := json.Unmarshal(r.Meta, &m); err != nil || m["source_format"] != c.format {
				t.Fatalf("%s: meta %s", c.format, r.Meta)
			}
		}
	}
}
