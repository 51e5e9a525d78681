package main

import (
	"fmt"
	"math/rand"

	"github.com/mneme-ai/mneme/internal/eval"
)

// show prints missed evidence of a category: question, evidence turns with
// their rank and lane scores, and the top 3.
func show(qs []Q, path string, cat int, n int) {
	convs, _ := eval.LoadLoCoMo(path)
	text := map[string]string{}
	for _, c := range convs {
		for _, t := range c.Turns {
			text[c.ID+t.DiaID] = t.Text
		}
	}
	r := rand.New(rand.NewSource(1))
	shown := 0
	for _, i := range r.Perm(len(qs)) {
		q := &qs[i]
		if q.Dataset != "locomo" || q.Cat != cat || shown >= n {
			continue
		}
		s := held(q, weighted(0.5, 0.1)(q))
		all := ranked(q, s, len(q.Cands))
		pos := map[string]int{}
		for r, ci := range all {
			for _, id := range q.Cands[ci].IDs {
				pos[id] = r + 1
			}
		}
		miss := false
		for _, e := range q.Evidence {
			if p := pos[e]; p == 0 || p > 10 {
				miss = true
			}
		}
		if !miss {
			continue
		}
		shown++
		fmt.Printf("\nQ [%s] %s\n", q.Conv, q.Text)
		for _, e := range q.Evidence {
			p := pos[e]
			sc := ""
			for ci, c := range q.Cands {
				for _, id := range c.IDs {
					if id == e {
						sc = fmt.Sprintf("lex#%d %.2f cos#%d %.2f fused %.3f sess %s", c.LexRank, c.BM25, c.VecRank, c.Sim, s[ci], c.Session)
					}
				}
			}
			fmt.Printf("  EV %s rank %d (%s): %.150s\n", e, p, sc, text[q.Conv+e])
		}
		for r, ci := range all[:3] {
			c := q.Cands[ci]
			id := ""
			if len(c.IDs) > 0 {
				id = c.IDs[0]
			}
			fmt.Printf("  #%d %s %.3f: %.120s\n", r+1, id, s[ci], text[q.Conv+id])
		}
	}
}
