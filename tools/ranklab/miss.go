package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/rank"
)

// miss prints, for the questions of the given categories whose R@10 is
// below 1, where each evidence turn ranks (0: not a candidate), its lane
// ranks, and how far it is from the nearest top-10 hit of its session.
func miss(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	cats := map[int]bool{}
	for _, a := range strings.Split(args[1], ",") {
		n, _ := strconv.Atoi(a)
		cats[n] = true
	}
	p := rank.Default()
	stats := map[string]int{}
	for i := range qs {
		q := &qs[i]
		if !cats[q.Cat] || len(q.Terms) == 0 || recallAt(p, q, 10) == 1 {
			continue
		}
		cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
		p.Boosts(q.Text, q.Terms, now, cands)
		rank.ByScore(cands)
		pos := map[string]int{}
		var top []string
		n := 0
		for _, c := range cands {
			if !p.Evidence(c) {
				continue
			}
			n++
			for _, id := range q.IDs[c.Index] {
				pos[id] = n
				if n <= 10 {
					top = append(top, id)
				}
			}
		}
		fmt.Printf("\ncat %d %s: %s\n", q.Cat, q.Conv, q.Text)
		for _, e := range q.Evidence {
			r := pos[e]
			var c *rank.Candidate
			for _, x := range cands {
				for _, id := range q.IDs[x.Index] {
					if id == e {
						c = x
					}
				}
			}
			d := nearest(e, top)
			kind := "absent"
			switch {
			case r > 0 && r <= 10:
				kind = "top10"
			case r > 0:
				kind = "pool"
			}
			stats[kind]++
			if kind != "top10" && d >= 0 && d <= 2 {
				stats[kind+"-adjacent"]++
			}
			if c != nil {
				fmt.Printf("  %-7s rank %3d lex %3d vec %3d cos %.2f adj %2d  %.110s\n", e, r, c.LexRank, c.VecRank, c.VecScore, d, c.Doc.Text)
			} else {
				fmt.Printf("  %-7s absent adj %2d\n", e, d)
			}
		}
	}
	fmt.Println(stats)
	return nil
}

// nearest is the distance in turns from e to the nearest id of top in
// the same session; -1 when none is.
func nearest(e string, top []string) int {
	s, t := split(e)
	best := -1
	for _, id := range top {
		s2, t2 := split(id)
		if s2 != s || id == e {
			continue
		}
		d := t - t2
		if d < 0 {
			d = -d
		}
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

func split(id string) (int, int) {
	a, b, _ := strings.Cut(strings.TrimPrefix(id, "D"), ":")
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x, y
}

// top prints the top 10 of the questions of the given categories whose
// R@10 is below 1, with each hit's score parts.
func top(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	cat, _ := strconv.Atoi(args[1])
	limit, _ := strconv.Atoi(args[2])
	p := rank.Default()
	shown := 0
	for i := range qs {
		q := &qs[i]
		if q.Cat != cat || len(q.Terms) == 0 || recallAt(p, q, 10) == 1 {
			continue
		}
		if shown++; shown > limit {
			break
		}
		cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
		p.Boosts(q.Text, q.Terms, now, cands)
		rank.ByScore(cands)
		fmt.Printf("\n%s: %s %v\n", q.Conv, q.Text, q.Evidence)
		n := 0
		for _, c := range cands {
			if !p.Evidence(c) {
				continue
			}
			n++
			mark := " "
			for _, id := range q.IDs[c.Index] {
				for _, e := range q.Evidence {
					if e == id {
						mark = "*"
					}
				}
			}
			if n <= 10 || mark == "*" {
				fmt.Printf(" %s%3d %.3f lex %.2f vec %.2f ses %.2f spk %.2f sh %.2f %v %.90s\n", mark, n, c.Score, c.LexScore, c.VecScore, c.Session, c.Speaker, c.Short, q.IDs[c.Index], c.Doc.Text)
			}
		}
	}
	return nil
}
