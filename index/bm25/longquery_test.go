package bm25_test

import (
	"os"
	"testing"

	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/bm25ref"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// TestLongQueryFidelity: asked with a whole document, the index's top 10 is
// textbook BM25's over every term of it, each with its frequency in the
// query (ties aside). Documents of NFCorpus (every twelfth) are the
// queries; run it with MNEME_NFCORPUS naming the directory
// (../shared/bench/nfcorpus); figures in docs/performance.md ("Long
// queries"). The PostgreSQL store's lane is held to the
// same reference in package postgres.
func TestLongQueryFidelity(t *testing.T) {
	dir := os.Getenv("MNEME_NFCORPUS")
	if dir == "" {
		skips.Skip(t, "MNEME_NFCORPUS=path/to/nfcorpus (in ../shared/bench)", "no NFCorpus")
	}
	docs, queries := NFCorpusDocs(t, dir, 12)
	ix := bm25.New()
	for _, d := range docs {
		ix.Put(d)
	}
	ref := bm25ref.New(docs)
	long, failed := 0, 0
	for _, q := range queries {
		words := textnorm.QueryTerms(q)
		if len(textnorm.Terms(q)) > 64 {
			long++
		}
		var got []int64
		for _, h := range ix.Search(bm25.Query{Terms: words, K: 10}) {
			got = append(got, h.Key)
		}
		if err := ref.Check(words, got, 10); err != nil {
			failed++
			t.Errorf("query %.60q: %v", q, err)
		}
	}
	t.Logf("%d documents asked with (%d of more than 64 distinct terms): top 10 equal to BM25's for %d", len(queries), long, len(queries)-failed)
	if long < 100 {
		t.Errorf("only %d queries of more than 64 terms", long)
	}
}

// NFCorpusDocs returns the NFCorpus corpus in dir as documents keyed from
// 1, and the text of every nth as a query.
func NFCorpusDocs(t testing.TB, dir string, nth int) ([]bm25.Doc, []string) {
	set, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	var docs []bm25.Doc
	var queries []string
	for i, d := range set.Docs {
		docs = append(docs, bm25.Doc{Key: int64(i + 1), Title: d.Title, Text: d.Text})
		if i%nth == 0 {
			queries = append(queries, d.Title+" "+d.Text)
		}
	}
	return docs, queries
}
