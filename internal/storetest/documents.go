package storetest

import (
	"testing"

	"github.com/mneme-ai/mneme"
)

func testDocuments(t *testing.T, f *fixture) {
	v1 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nSecond paragraph about beta.\n")
	opts := mneme.IngestOptions{Project: "docs", MaxTokens: 16, OverlapTokens: -1}
	res, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts)
	if err != nil || res.Inserted < 2 {
		t.Fatalf("ingest v1 = %+v, %v", res, err)
	}
	before := f.recall(mneme.Query{Text: "alpha", Filter: mneme.Filter{Project: "docs"}})
	res, err = f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts)
	if err != nil || res.Unchanged != 1 || res.Inserted+res.Updated+res.Deleted != 0 {
		t.Fatalf("re-ingest unchanged = %+v, %v", res, err)
	}
	v2 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nReplaced paragraph about gamma.\n")
	res, err = f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v2}}, opts)
	if err != nil || res.Inserted != 1 || res.Deleted != 1 {
		t.Fatalf("ingest v2 = %+v, %v", res, err)
	}
	if hits := f.recall(mneme.Query{Text: "beta", Filter: mneme.Filter{Project: "docs"}}); len(hits) != 0 {
		t.Fatalf("stale chunk still recalled: %v", ids(hits))
	}
	after := f.recall(mneme.Query{Text: "alpha", Filter: mneme.Filter{Project: "docs"}})
	if len(after) != 1 || after[0].ID != before[0].ID {
		t.Fatalf("unchanged chunk changed id: %v -> %v", ids(before), ids(after))
	}
	src := after[0].Record.Source
	if src == nil || src.URI != "/r/a.md" || src.Parent == "" || src.LineStart != 1 {
		t.Fatalf("chunk source = %+v", src)
	}
	docs, chunks, err := f.eng.Sync(f.ctx, "docs", []string{"/r/"}, map[string]bool{})
	if err != nil || docs != 1 || chunks != 2 {
		t.Fatalf("sync = %d docs, %d chunks, %v", docs, chunks, err)
	}
	if hits := f.recall(mneme.Query{Text: "alpha gamma", Filter: mneme.Filter{Project: "docs"}}); len(hits) != 0 {
		t.Fatalf("removed document still recalled")
	}
}

// testImportedChunks: importing chunk records registers their document, so
// a later ingest of the file keeps the imported chunks that did not change
// and replaces the rest.
func testImportedChunks(t *testing.T, f *fixture) {
	v1 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nSecond paragraph about beta.\n")
	opts := mneme.IngestOptions{Project: "src", MaxTokens: 16, OverlapTokens: -1}
	if _, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts); err != nil {
		t.Fatal(err)
	}
	chunks, _, err := f.eng.List(f.ctx, mneme.Filter{Project: "src"}, 10, "")
	if err != nil || len(chunks) != 2 {
		t.Fatalf("chunks = %d, %v", len(chunks), err)
	}
	parent := mneme.NewID(f.now)
	var recs []*mneme.Record
	for _, c := range chunks { // as another home's export would carry them
		src := *c.Source
		src.Parent = parent
		recs = append(recs, &mneme.Record{ID: mneme.NewID(f.now), Project: "imp", Type: c.Type, Kind: c.Kind, Title: c.Title,
			Text: c.Text, Source: &src, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
	}
	if _, err := f.eng.Import(f.ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	docs, err := f.eng.Store().Documents(f.ctx, "imp", "/r/")
	if err != nil || len(docs) != 1 || docs[0].ID != parent || docs[0].Chunks != 2 {
		t.Fatalf("documents after import = %+v, %v", docs, err)
	}
	opts.Project = "imp"
	res, err := f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v1}}, opts)
	if err != nil || res.Inserted+res.Updated+res.Deleted+res.SkippedDuplicates != 0 {
		t.Fatalf("ingest after import = %+v, %v", res, err)
	}
	v2 := []byte("# Intro\n\nFirst paragraph about alpha.\n\n# Usage\n\nReplaced paragraph about gamma.\n")
	res, err = f.eng.Ingest(f.ctx, []mneme.SourceFile{{URI: "/r/a.md", Data: v2}}, opts)
	if err != nil || res.Inserted != 1 || res.Deleted != 1 {
		t.Fatalf("ingest of an edit after import = %+v, %v", res, err)
	}
}
