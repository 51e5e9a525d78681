package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/sqlite"
)

// export is a store's content as migrate-store must keep it: every record
// (with links, status and times), its vector, and the documents.
func export(t *testing.T, s mneme.Store) string {
	t.Helper()
	ctx := context.Background()
	eng := mneme.NewEngine(s)
	var b strings.Builder
	var ids []string
	err := eng.Each(ctx, mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true}, func(r *mneme.Record) error {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
		ids = append(ids, r.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c := s.(mneme.Copier)
	vecs, err := c.Vectors(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		fmt.Fprintf(&b, "%s %v\n", id, vecs[id])
	}
	docs, err := c.AllDocuments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		line, _ := json.Marshal(d)
		b.Write(append(line, '\n'))
	}
	info, ok, _ := s.HomeEmbedder(ctx)
	fmt.Fprintf(&b, "embedder %+v %v\n", info, ok)
	return b.String()
}

// fill writes a bit of everything: keyed (superseded) records, a session,
// a secret, an ingested document, links, vectors.
func fill(t *testing.T, s mneme.Store) {
	t.Helper()
	ctx := context.Background()
	e, _ := hash.New(32)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(e), mneme.WithClock(func() time.Time { now = now.Add(time.Second); return now }))
	var recs []*mneme.Record
	for i := range 120 {
		r := &mneme.Record{Text: fmt.Sprintf("note %d about deploys, caches and the release train", i), Project: fmt.Sprintf("p%d", i%3), Tags: []string{fmt.Sprintf("t%d", i%4)}}
		if i%10 == 0 {
			r.Key = fmt.Sprintf("k%d", i%3)
		}
		if i%17 == 0 {
			r.Sensitivity = mneme.Secret
		}
		if i%5 == 0 {
			r.SessionID = "chat"
		}
		recs = append(recs, r)
	}
	for _, r := range recs { // one by one, so keys supersede
		if _, err := eng.Remember(ctx, []*mneme.Record{r}, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	doc := []byte("# Deploy\n\nWe deploy on Tuesdays.\n\n## Rollback\n\nRevert the tag and redeploy.\n")
	if _, err := eng.Ingest(ctx, []mneme.SourceFile{{URI: "/docs/deploy.md", Data: doc}}, mneme.IngestOptions{Project: "docs", MaxTokens: 16, OverlapTokens: -1}); err != nil {
		t.Fatal(err)
	}
}

// TestMigrateStore copies a SQLite home into PostgreSQL and back; each
// copy's export equals the original's, and a second run changes nothing.
func TestMigrateStore(t *testing.T) {
	pgtest.DSN(t)
	ctx := context.Background()
	src, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	fill(t, src)
	want := export(t, src)
	pg := pgtest.Open(t)
	defer pg.Close()
	res, err := copyStore(ctx, src, pg, 25, nil)
	if err != nil || res.Written.Inserted != res.Records || res.Vectors == 0 || res.Documents != 1 {
		t.Fatalf("sqlite -> postgres: %+v, %v", res, err)
	}
	if got := export(t, pg); got != want {
		t.Fatalf("postgres export differs from the sqlite one:\n%s", firstDiff(got, want))
	}
	again, err := copyStore(ctx, src, pg, 25, nil)
	if err != nil || again.Written.SkippedDuplicates != again.Records || again.Written.Inserted+again.Written.Updated != 0 {
		t.Fatalf("second copy = %+v, %v; want everything skipped", again.Written, err)
	}
	back, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if _, err := copyStore(ctx, pg, back, 40, nil); err != nil {
		t.Fatal(err)
	}
	if got := export(t, back); got != want {
		t.Fatalf("postgres -> sqlite export differs:\n%s", firstDiff(got, want))
	}
	hits, err := mneme.NewEngine(pg).Recall(ctx, mneme.Query{Text: "rollback tag", K: 3, Filter: mneme.Filter{Project: "docs"}})
	if err != nil || len(hits.Hits) == 0 {
		t.Fatalf("recall on the copy: %v, %v", hits, err)
	}
	if !reflect.DeepEqual(res.Embedder, again.Embedder) {
		t.Fatal("embedder changed between runs")
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}
