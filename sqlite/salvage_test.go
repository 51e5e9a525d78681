package sqlite_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/damage"
	"github.com/mneme-ai/mneme/sqlite"
)

// damaged is a home of 3,000 embedded records (the first 10 secret, each
// from the 11th on linking to the one before), 20 ingested documents, and
// a damaged page in table.
type damaged struct {
	home    string
	total   int // records
	secret  int
	docs    int
	cells   int // rows on the damaged page
	linked  *mneme.Record
	files   map[string][32]byte
	em      *hash.Embedder
	eng     *mneme.Engine
	created time.Time
}

func newDamaged(t *testing.T, table string) *damaged {
	t.Helper()
	ctx := context.Background()
	d := &damaged{home: t.TempDir(), secret: 10, docs: 20, created: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	s, err := sqlite.Open(ctx, d.home)
	if err != nil {
		t.Fatal(err)
	}
	d.em, _ = hash.New(32)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(d.em), mneme.WithClock(func() time.Time { return d.created }))
	recs := make([]*mneme.Record, 3000)
	for i := range recs {
		recs[i] = &mneme.Record{ID: mneme.NewID(d.created.Add(time.Duration(i) * time.Second)), Project: "p",
			Text: fmt.Sprintf("memory %d about the release train and rule %d", i, i%97), CreatedAt: d.created, UpdatedAt: d.created}
		if i < d.secret {
			recs[i].Sensitivity = mneme.Secret
		} else if i > d.secret {
			recs[i].Links = []mneme.Link{{Type: mneme.LinkFollows, Target: recs[i-1].ID}}
		}
	}
	if _, err := eng.Import(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	d.linked = recs[len(recs)-1]
	var files []mneme.SourceFile
	for i := range d.docs {
		files = append(files, mneme.SourceFile{URI: fmt.Sprintf("/docs/%02d.md", i), Data: []byte(fmt.Sprintf("# Doc %d\n\nThe body of document %d.\n", i, i))})
	}
	res, err := eng.Ingest(ctx, files, mneme.IngestOptions{Project: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	d.total = len(recs) + res.Inserted
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if _, d.cells, err = damage.Page(filepath.Join(d.home, sqlite.FileName), table); err != nil {
		t.Fatal(err)
	}
	return d
}

// fileSums hashes every file in dir.
func fileSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][32]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = sha256.Sum256(data)
	}
	return out
}

func (d *damaged) salvage(t *testing.T) (mneme.SalvageResult, *mneme.Engine) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), d.home)
	if err != nil {
		t.Fatal(err)
	}
	c := integrity(t, s, false)
	s.Close()
	if c.OK {
		t.Fatalf("the damage went unnoticed: %+v", c)
	}
	d.files = fileSums(t, d.home)
	to := filepath.Join(t.TempDir(), "repaired")
	res, err := sqlite.Salvage(context.Background(), d.home, to)
	if err != nil {
		t.Fatal(err)
	}
	if got := fileSums(t, d.home); !reflect.DeepEqual(got, d.files) {
		t.Fatalf("the damaged home changed: %v, was %v", got, d.files)
	}
	entries, _ := os.ReadDir(to)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".repair") {
			t.Fatalf("the copy of the damaged database was left behind: %v", entries)
		}
	}
	s = mustOpen(t, to)
	if c := integrity(t, s, true); !c.OK {
		t.Fatalf("the repaired database: %+v", c)
	}
	return res, mneme.NewEngine(s, mneme.WithEmbedder(d.em))
}

// mustOpen opens home, closed at the end of the test.
func mustOpen(t *testing.T, home string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSalvageRecordsPage: a damaged page of records loses exactly the
// records on it; every other one is saved with its id, times and links,
// with its vector, and the documents and cache come along. The damaged
// home is not changed.
func TestSalvageRecordsPage(t *testing.T) {
	d := newDamaged(t, "records")
	res, eng := d.salvage(t)
	ctx := context.Background()
	if res.UnreadableRecords != d.cells || res.Records != d.total-d.cells || res.Documents != d.docs || res.Cached < res.Vectors {
		t.Fatalf("salvage = %+v; want %d of %d records saved, %d documents", res, d.total-d.cells, d.total, d.docs)
	}
	st, err := eng.Stats(ctx)
	if err != nil || st.Total != res.Records {
		t.Fatalf("the new home holds %+v, %v; want %d records", st, err, res.Records)
	}
	secret := min(st.Secret, d.secret)
	if res.Vectors+res.Unembedded != res.Records-secret || res.Unembedded != 0 {
		t.Fatalf("vectors: %+v (%d secret)", res, secret)
	}
	if got, err := eng.Get(ctx, d.linked.ID, mneme.Secret); err != nil || !reflect.DeepEqual(got.Links, d.linked.Links) || !got.CreatedAt.Equal(d.created) {
		t.Fatalf("the last record: %+v, %v", got, err)
	}
	hits, err := eng.Recall(ctx, mneme.Query{Text: "release train rule 42", K: 3})
	if err != nil || len(hits.Hits) == 0 || hits.Degraded {
		t.Fatalf("recall in the new home: %+v, %v", hits, err)
	}
}

// TestSalvageVectorsPage: a damaged page of vectors loses only those
// vectors (counted); every record is saved, and reindex embeds the ones
// left without a vector from the cache.
func TestSalvageVectorsPage(t *testing.T) {
	d := newDamaged(t, "vectors")
	res, eng := d.salvage(t)
	if res.UnreadableRecords != 0 || res.Records != d.total || res.UnreadableRows != d.cells || res.Unembedded != d.cells {
		t.Fatalf("salvage = %+v; want every one of %d records, %d vectors unreadable", res, d.total, d.cells)
	}
	r, err := eng.Reindex(context.Background())
	if err != nil || r.Embedded != d.cells {
		t.Fatalf("reindex = %+v, %v; want %d embedded", r, err, d.cells)
	}
}

// TestSalvageRefuses: the destination must be new (or empty) and not the
// damaged home; a home without a database has nothing to save.
func TestSalvageRefuses(t *testing.T) {
	ctx := context.Background()
	home := populated(t, 10)
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), nil, 0o600)
	for _, to := range []string{home, full, home + "/.", filepath.Join(home, "sub")} {
		if _, err := sqlite.Salvage(ctx, home, to); mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "--to") {
			t.Fatalf("salvage into %s: %v", to, err)
		}
	}
	if _, err := sqlite.Salvage(ctx, t.TempDir(), filepath.Join(t.TempDir(), "new")); mneme.ErrorCode(err) != mneme.EUNAVAILABLE {
		t.Fatalf("salvage of nothing: %v", err)
	}
	if _, err := sqlite.Salvage(ctx, home, filepath.Join(t.TempDir(), "new")); err != nil {
		t.Fatalf("salvage of a sound home: %v", err)
	}
}
