package sqlite_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/textnorm"
	_ "modernc.org/sqlite"
)

// BenchmarkFTS5Baseline runs the queries of BenchmarkLexicalRecall against
// SQLite FTS5 (bm25(), external content, filter inside the query) over the
// same 100,000 records: the alternative the store's own index replaced.
func BenchmarkFTS5Baseline(b *testing.B) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "fts.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		"CREATE TABLE records (seq INTEGER PRIMARY KEY, project TEXT, status TEXT, text TEXT)",
		"CREATE VIRTUAL TABLE records_fts USING fts5(text, content='records', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2')",
	} {
		if _, err := db.Exec(s); err != nil {
			b.Fatal(err)
		}
	}
	c := benchdata.New(1, 30_000)
	tx, _ := db.Begin()
	for i := range 100_000 {
		r := c.Record(i)
		if _, err := tx.Exec("INSERT INTO records (seq, project, status, text) VALUES (?, ?, 'active', ?)", i+1, r.Project, r.Text); err != nil {
			b.Fatal(err)
		}
	}
	tx.Exec("INSERT INTO records_fts (rowid, text) SELECT seq, text FROM records")
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for _, project := range []string{"", "p0"} {
		b.Run(fmt.Sprintf("n=100000/project=%q", project), func(b *testing.B) {
			q := benchdata.New(2, 30_000)
			queries := make([]string, 1000)
			for i := range queries {
				terms := textnorm.Terms(q.Query())
				queries[i] = `"` + strings.Join(terms, `" OR "`) + `"`
			}
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				rows, err := db.Query(`SELECT r.seq, bm25(records_fts) AS s FROM records_fts JOIN records r ON r.seq = records_fts.rowid
					WHERE records_fts MATCH ? AND r.status = 'active' AND (? = '' OR r.project = ?) ORDER BY s LIMIT 10`, queries[i%len(queries)], project, project)
				if err != nil {
					b.Fatal(err)
				}
				for rows.Next() {
				}
				rows.Close()
				lat = append(lat, time.Since(t0))
			}
			benchdata.ReportPercentiles(b, lat)
		})
	}
}
