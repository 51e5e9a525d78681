package main

import (
	"fmt"
	"strconv"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// sim measures experimental stages after the profile's: sessdiv D M
// (each hit beyond M of a session already chosen costs D), mmr L.
func sim(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	f := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
	kind, a, b := args[1], f(args[2]), f(args[3])
	p := rank.Default()
	var cats catMeans
	for i := range qs {
		q := &qs[i]
		r := 1.0
		if len(q.Terms) > 0 {
			cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
			p.Boosts(q.Text, q.Terms, now, cands)
			if kind == "rerank" {
				pp := p
				pp.RerankCoverage, pp.RerankPhrase, pp.RerankRecency, pp.RerankType = a, b, 0, 0
				pp.Rerank(q.Text, cands)
			}
			rank.ByScore(cands)
			var kept []*rank.Candidate
			for _, c := range cands {
				if p.Evidence(c) {
					kept = append(kept, c)
				}
			}
			switch kind {
			case "sessdiv":
				kept = sessDiv(kept, a, int(b), 10)
			case "mmr":
				kept = rank.MMR(kept, a, 10)
			}
			var ids []string
			for _, c := range kept[:min(10, len(kept))] {
				ids = append(ids, q.IDs[c.Index]...)
			}
			r = eval.RecallAt(ids, q.Evidence, 1000+len(ids))
		}
		cats.add(q.Cat, r)
	}
	sum := cats.means()
	fmt.Println(line(fmt.Sprintf("%s %g %g", kind, a, b), sum))
	return nil
}

func sessDiv(cands []*rank.Candidate, d float64, m, k int) []*rank.Candidate {
	var out []*rank.Candidate
	count := map[string]int{}
	left := append([]*rank.Candidate(nil), cands...)
	for len(out) < k && len(left) > 0 {
		best, bv := 0, -1e9
		for i, c := range left {
			v := c.Score - d*float64(max(0, count[c.Doc.Session]-m+1))
			if c.Doc.Session == "" {
				v = c.Score
			}
			if v > bv {
				best, bv = i, v
			}
		}
		c := left[best]
		count[c.Doc.Session]++
		out = append(out, c)
		left = append(left[:best], left[best+1:]...)
	}
	return out
}
