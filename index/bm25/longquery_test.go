package bm25

import (
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// TestLongQueryFidelity: asked with a whole document, the 64 rarest terms
// the index reads rank closer to BM25 over every term than the first 64
// words did. Documents of NFCorpus (every twelfth) are the queries; run it
// with MNEME_NFCORPUS naming the directory (../shared/bench/nfcorpus).
// The figures are in docs/performance.md ("Long queries").
func TestLongQueryFidelity(t *testing.T) {
	dir := os.Getenv("MNEME_NFCORPUS")
	if dir == "" {
		skips.Skip(t, "MNEME_NFCORPUS=path/to/nfcorpus (in ../shared/bench)", "no NFCorpus")
	}
	ix, texts := nfcorpusIndex(t, dir)
	keys := func(hits []Hit) []int64 {
		var out []int64
		for _, h := range hits {
			out = append(out, h.Key)
		}
		return out
	}
	var long, first, rarest float64
	for i := 0; i < len(texts); i += 12 {
		words := textnorm.Terms(texts[i])
		all, stems := ix.allTermsTop(words, 10)
		if stems <= MaxQueryTerms {
			continue
		}
		long++
		first += overlap(all, keys(ix.Search(Query{Terms: words[:MaxQueryTerms], K: 10})))
		rarest += overlap(all, keys(ix.Search(Query{Terms: words, K: 10})))
	}
	first, rarest = first/long, rarest/long
	t.Logf("%.0f documents of more than %d terms asked with: top 10 shared with BM25 over every term: first %d words %.3f, the %d rarest %.3f",
		long, MaxQueryTerms, MaxQueryTerms, first, MaxQueryTerms, rarest)
	if long < 100 || rarest <= first {
		t.Errorf("the rarest terms are no closer to every term than the first words")
	}
}

// nfcorpusIndex indexes the corpus of the BEIR set in dir and returns its
// documents' texts, keyed from 1 in corpus order.
func nfcorpusIndex(t *testing.T, dir string) (*Index, []string) {
	set, err := eval.LoadBEIR(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	ix := New()
	var texts []string
	for _, d := range set.Docs {
		texts = append(texts, d.Title+" "+d.Text)
		ix.Put(Doc{Key: int64(len(texts)), Title: d.Title, Text: d.Text})
	}
	return ix, texts
}

// allTermsTop is the top k by BM25 over every stem of words, uncapped, and
// the number of those stems the index holds.
func (ix *Index) allTermsTop(words []string, k int) ([]int64, int) {
	sum := map[uint32]float32{}
	avg := float32(ix.totalLen / float64(ix.live))
	seen := map[string]bool{}
	for _, w := range words {
		s := Stem(w)
		p := ix.postings(s)
		if p == nil || seen[s] {
			continue
		}
		seen[s] = true
		idf := ix.idf(ix.df(p))
		for i, d := range p.docs {
			tf := p.tfs[i]
			sum[d] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*ix.lens[d]/avg))
		}
	}
	docs := make([]uint32, 0, len(sum))
	for d := range sum {
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool { return sum[docs[i]] > sum[docs[j]] })
	var out []int64
	for _, d := range docs[:min(k, len(docs))] {
		out = append(out, ix.keys[d])
	}
	return out, len(seen)
}

func overlap(a, b []int64) float64 {
	n := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			n++
		}
	}
	return float64(n) / float64(len(a))
}
