package postgres_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/bm25ref"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestLongQueryFidelity: asked with a whole document, the lexical lane of
// each store (PostgreSQL's walks the posting lists best first, SQLite's
// embedded index reads them all) returns textbook BM25's top 10 over every
// term of it, each with its frequency in the query (ties aside).
// Documents of NFCorpus (every twelfth) are the queries; run it with
// MNEME_NFCORPUS naming the directory (../shared/bench/nfcorpus).
func TestLongQueryFidelity(t *testing.T) {
	dir := os.Getenv("MNEME_NFCORPUS")
	if dir == "" {
		skips.Skip(t, "MNEME_NFCORPUS=path/to/nfcorpus (in ../shared/bench)", "no NFCorpus")
	}
	ctx := context.Background()
	recs, docs := nfcorpusRecords(t, dir)
	ref := bm25ref.New(docs)
	lite, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	pg := pgtest.Open(t)
	defer pg.Close()
	for name, s := range map[string]mneme.Store{"sqlite": lite, "postgres": pg} {
		for _, r := range recs {
			r.ID = ""
		}
		if _, err := mneme.NewEngine(s).Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		key := map[string]int64{}
		for i, r := range recs {
			key[r.ID] = docs[i].Key
		}
		asked, failed := 0, 0
		for i := 0; i < len(docs); i += 12 {
			words := textnorm.QueryTerms(docs[i].Title + " " + docs[i].Text)
			found, err := s.Candidates(ctx, mneme.CandidateQuery{Terms: words, K: 10, Filter: mneme.Filter{Project: "p", Now: time.Now()}})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]int64, len(found.List))
			for _, c := range found.List {
				got[c.LexicalRank-1] = key[c.Record.ID]
			}
			asked++
			if err := ref.Check(words, got, 10); err != nil {
				failed++
				t.Errorf("%s, document %d asked with: %v", name, docs[i].Key, err)
			}
		}
		t.Logf("%s: %d documents asked with, top 10 equal to BM25's for %d", name, asked, asked-failed)
	}
}

// nfcorpusRecords returns NFCorpus's documents as records, once each
// (the stores keep one of records alike), and as the reference indexes
// them, keyed from 1.
func nfcorpusRecords(t *testing.T, dir string) ([]*mneme.Record, []bm25.Doc) {
	set, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	var recs []*mneme.Record
	var docs []bm25.Doc
	seen := map[string]bool{}
	for _, d := range set.Docs {
		if mneme.ValidateText(d.Text) != nil || seen[d.Text] {
			continue
		}
		seen[d.Text] = true
		recs = append(recs, &mneme.Record{Project: "p", Kind: "document", Title: d.Title, Text: d.Text})
		docs = append(docs, bm25.Doc{Key: int64(len(docs) + 1), Title: d.Title, Text: d.Text})
	}
	return recs, docs
}
