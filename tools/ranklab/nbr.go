package main

import (
	"fmt"
	"strconv"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// nbr simulates neighbour scoring: a candidate gains after× the score of
// the turn just before it and before× that of the turn just after it; the
// top `top` hits' neighbours absent from the pool join at inject× the
// hit's score.
func nbr(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	convs, err := eval.LoadLoCoMo(args[1])
	if err != nil {
		return err
	}
	exists := map[string]bool{}
	for _, c := range convs {
		for _, t := range c.Turns {
			exists[c.ID+"/"+t.DiaID] = true
		}
	}
	f := func(s string) float64 { x, _ := strconv.ParseFloat(s, 64); return x }
	after, before, inject := f(args[2]), f(args[3]), f(args[4])
	top, _ := strconv.Atoi(args[5])
	p := rank.Default()
	var cats catMeans
	for i := range qs {
		q := &qs[i]
		r := 1.0
		if len(q.Terms) > 0 {
			r = nbrRecall(p, q, exists, after, before, inject, top)
		}
		cats.add(q.Cat, r)
	}
	sum := cats.means()
	fmt.Println(line(fmt.Sprintf("a%.2f b%.2f i%.2f t%d", after, before, inject, top), sum))
	return nil
}

type scored struct {
	ids   []string
	score float64
}

func nbrRecall(p rank.Profile, q *Q, exists map[string]bool, after, before, inject float64, top int) float64 {
	cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
	p.Boosts(q.Text, q.Terms, now, cands)
	base := map[string]float64{}
	for _, c := range cands {
		if p.Evidence(c) {
			for _, id := range q.IDs[c.Index] {
				base[id] = c.Score
			}
		}
	}
	shift := func(id string, d int) string {
		s, t := split(id)
		return fmt.Sprintf("D%d:%d", s, t+d)
	}
	var list []scored
	for _, c := range cands {
		if !p.Evidence(c) {
			continue
		}
		s := c.Score
		if len(q.IDs[c.Index]) > 0 {
			id := q.IDs[c.Index][0]
			s += after*base[shift(id, -1)] + before*base[shift(id, 1)]
		}
		list = append(list, scored{q.IDs[c.Index], s})
	}
	sortScored(list)
	if inject > 0 {
		seen := map[string]bool{}
		for _, x := range list {
			for _, id := range x.ids {
				seen[id] = true
			}
		}
		var add []scored
		for _, x := range list[:min(top, len(list))] {
			if len(x.ids) == 0 {
				continue
			}
			for _, d := range []int{1, -1} {
				id := shift(x.ids[0], d)
				if !seen[id] && exists[q.Conv+"/"+id] {
					seen[id] = true
					add = append(add, scored{[]string{id}, inject * x.score})
				}
			}
		}
		list = append(list, add...)
		sortScored(list)
	}
	var ids []string
	for _, x := range list[:min(10, len(list))] {
		ids = append(ids, x.ids...)
	}
	return eval.RecallAt(ids, q.Evidence, 1000+len(ids))
}

func sortScored(l []scored) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j].score > l[j-1].score; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}
