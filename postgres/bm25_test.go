package postgres_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/benchdata"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/postgres"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestLexicalMatchesSQLite: the lexical lane, which reads only the best
// postings of common terms, ranks and scores as the embedded index does,
// which reads them all: the same records at the same scores, for many
// queries (some of more than 64 distinct terms, one word of a term set),
// k and filters, on both of its paths (walking the posting lists, here
// also with limits small enough to take many rounds, and scoring every
// record that passes a narrow filter).
func TestLexicalMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	pg := pgtest.Open(t)
	defer pg.Close()
	lite, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	const n, vocab = 6000, 2000 // small vocabulary: long posting lists
	for _, s := range []mneme.Store{lite, pg} {
		c := benchdata.New(1, vocab)
		var recs []*mneme.Record
		for i := range n {
			r := c.Record(i)
			r.ID = ""
			recs = append(recs, r)
		}
		if _, err := mneme.NewEngine(s).Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	filters := map[string]mneme.Filter{"none": {}, "project": {Project: "p0"}, "tags": {Tags: []string{"t3", "t4"}}}
	for _, limits := range []struct {
		exact  int
		share  float64
		short  int64
		settle int
	}{{5000, 1, 8192, 512}, {0, 0, 64, 16}} {
		restore := postgres.SetSearchLimits(limits.exact, limits.share, limits.short, limits.settle)
		for name, f := range filters {
			q := benchdata.New(2, vocab)
			for i := range 30 {
				query := q.Query()
				cq := mneme.CandidateQuery{Terms: textnorm.Terms(query), K: []int{10, 50}[i%2], Filter: f}
				switch {
				case i%3 == 2: // as feedback searches: the query's terms four times, then other words
					cq.Terms = slices.Concat(cq.Terms, cq.Terms, cq.Terms, cq.Terms, textnorm.Terms(q.Query()))
				case i%5 == 4: // a whole document asked with: more terms than one 64-bit set holds
					for len(slices.Compact(slices.Sorted(slices.Values(cq.Terms)))) <= 150 {
						query += " " + q.Query()
						cq.Terms = textnorm.QueryTerms(query)
					}
				}
				t.Run(fmt.Sprintf("%v/%s/%d", limits, name, i), func(t *testing.T) {
					sameRanking(t, beyondCut(t, lite, cq), lexicalRanking(t, pg, cq), cq.K)
				})
			}
		}
		restore()
	}
}

type ranked struct {
	text  string
	score float64
}

func lexicalRanking(t *testing.T, s mneme.Store, q mneme.CandidateQuery) []ranked {
	t.Helper()
	q.Filter.Now = time.Now()
	found, err := s.Candidates(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(found.List, func(i, j int) bool { return found.List[i].LexicalRank < found.List[j].LexicalRank })
	var out []ranked
	for _, c := range found.List {
		out = append(out, ranked{c.Record.Text, c.BM25})
	}
	return out
}

// beyondCut is s's ranking for q with one hit past q's cut, so that
// sameRanking can tell a tie across the cut from a missed record.
func beyondCut(t *testing.T, s mneme.Store, q mneme.CandidateQuery) []ranked {
	q.K++
	return lexicalRanking(t, s, q)
}

// sameRanking fails unless got has want's scores (the embedded index adds
// in single precision) and records, but for the order of records whose
// scores tie; want may hold hits past got's cut of k.
func sameRanking(t *testing.T, want, got []ranked, k int) {
	t.Helper()
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*math.Max(math.Abs(a), math.Abs(b)) }
	if len(got) != min(len(want), k) {
		t.Fatalf("%d hits, want %d", len(got), min(len(want), k))
	}
	for i := range got {
		if !near(got[i].score, want[i].score) {
			t.Fatalf("hit %d scores %g, want %g", i+1, got[i].score, want[i].score)
		}
		tied := (i > 0 && near(want[i].score, want[i-1].score)) || (i+1 < len(want) && near(want[i].score, want[i+1].score))
		if !tied && got[i].text != want[i].text {
			t.Fatalf("hit %d is %q, want %q", i+1, got[i].text, want[i].text)
		}
	}
}

// TestImpactKeyMatchesBM25: postings_impact is ordered with the BM25
// parameters the search scores with; changing them needs a migration that
// rebuilds it (see topk.go).
func TestImpactKeyMatchesBM25(t *testing.T) {
	k1, b := bm25.Params()
	k0, c := postgres.ImpactConstants()
	if math.Abs(k0-k1*(1-b)) > 1e-12 || math.Abs(c-k1*b/40) > 1e-12 {
		t.Fatalf("postings_impact uses k0 %g, c %g; BM25's k1 %g and b %g want %g and %g: add a migration rebuilding postings_impact",
			k0, c, k1, b, k1*(1-b), k1*b/40)
	}
}
