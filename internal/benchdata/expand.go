package benchdata

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/eval"
)

// ImportLinked imports n records of the corpus into eng with typed links
// as a working memory has them: every fourth record is a summary
// derived_from the three records before it, every third relates_to an
// earlier one, and 5% are secret (a caller without clearance has links
// to hide).
func ImportLinked(b *testing.B, eng *mneme.Engine, n int) {
	b.Helper()
	c := New(1, 30_000)
	ids := make([]string, 0, n)
	for start := 0; start < n; start += 1000 {
		batch := make([]*mneme.Record, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			r := c.Record(i)
			if i%4 == 3 {
				r.Kind = "summary"
				for _, j := range []int{i - 1, i - 2, i - 3} {
					r.Links = append(r.Links, mneme.Link{Type: mneme.LinkDerivedFrom, Target: ids[j]})
				}
			}
			if i%3 == 0 && i > 0 {
				r.Links = append(r.Links, mneme.Link{Type: mneme.LinkRelatesTo, Target: ids[(i*7919)%i]})
			}
			if i%20 == 7 {
				r.Sensitivity = mneme.Secret
			}
			ids = append(ids, r.ID)
			batch = append(batch, r)
		}
		if _, err := eng.Import(context.Background(), batch, mneme.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchExpand measures what expand 2 adds to a lexical recall of k 10 in
// eng (ImportLinked's records): each iteration runs the same query without
// expansion and with it, in alternating order, so the ratio and the
// difference compare like with like on a noisy machine. As the owner
// (every link shown) and as a token without clearance secret (links to
// secret records hidden: one more store call a recall).
func BenchExpand(b *testing.B, eng *mneme.Engine, n int) {
	scopes := []struct {
		name string
		ctx  context.Context
	}{
		{"owner", context.Background()},
		{"internal-token", mneme.WithScope(context.Background(), mneme.Scope{Name: "team", Clearance: mneme.Internal})},
	}
	for _, sc := range scopes {
		b.Run(fmt.Sprintf("n=%d/expand=2/caller=%s", n, sc.name), func(b *testing.B) {
			c := New(2, 30_000)
			var base, expanded, added []time.Duration
			extra := 0
			for i := 0; b.Loop(); i++ {
				q := mneme.Query{Text: c.Query(), K: 10, Mode: mneme.Lexical}
				run := func(expand int) (time.Duration, int) {
					q.Expand = expand
					t0 := time.Now()
					res, err := eng.Recall(sc.ctx, q)
					if err != nil {
						b.Fatal(err)
					}
					return time.Since(t0), len(res.Hits)
				}
				var t0, t2 time.Duration
				var h0, h2 int
				if i%2 == 0 {
					t0, h0 = run(0)
					t2, h2 = run(2)
				} else {
					t2, h2 = run(2)
					t0, h0 = run(0)
				}
				base, expanded, added = append(base, t0), append(expanded, t2), append(added, t2-t0)
				extra += h2 - h0
			}
			p50, _ := eval.Percentiles(base)
			p50x, p99x := eval.Percentiles(expanded)
			p50d, _ := eval.Percentiles(added)
			b.ReportMetric(p50, "p50-ms")
			b.ReportMetric(p50x, "p50-expand-ms")
			b.ReportMetric(p99x, "p99-expand-ms")
			b.ReportMetric(p50d, "p50-added-ms")
			b.ReportMetric(p50x/p50, "ratio")
			b.ReportMetric(float64(extra)/float64(len(base)), "expanded/query")
		})
	}
}
