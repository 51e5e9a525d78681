package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/rank"
)

// feat compares, over the missed questions of the given categories, the
// top-10 hits that are not evidence with the evidence ranked 11 to 50:
// mean lane scores and boosts, and the share with each trait.
func feat(args []string) error {
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
	type acc struct{ n, lex, vec, ses, spk, short, question, named, words, both float64 }
	var wrong, near acc
	for i := range qs {
		q := &qs[i]
		if !cats[q.Cat] || len(q.Terms) == 0 || recallAt(p, q, 10) == 1 {
			continue
		}
		cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
		p.Boosts(q.Text, q.Terms, now, cands)
		rank.ByScore(cands)
		ev := map[string]bool{}
		for _, e := range q.Evidence {
			ev[e] = true
		}
		n := 0
		for _, c := range cands {
			if !p.Evidence(c) {
				continue
			}
			n++
			isEv := false
			for _, id := range q.IDs[c.Index] {
				isEv = isEv || ev[id]
			}
			var a *acc
			switch {
			case n <= 10 && !isEv:
				a = &wrong
			case n > 10 && n <= 50 && isEv:
				a = &near
			default:
				continue
			}
			a.n++
			a.lex += c.LexScore
			a.vec += c.VecScore
			a.ses += c.Session
			a.spk += c.Speaker
			a.short += c.Short
			body := strings.TrimSpace(c.Doc.Text)
			if strings.Contains(body, "?") {
				a.question++
			}
			a.words += float64(textnorm.CountWords(body, 1000))
			if c.Speaker == 0 {
				a.named++ // not by the person the question names
			}
			if c.LexRank > 0 && c.VecRank > 0 {
				a.both++
			}
		}
	}
	for _, x := range []struct {
		name string
		a    acc
	}{{"top-10 not evidence", wrong}, {"evidence 11-50", near}} {
		a := x.a
		fmt.Printf("%-20s n %4.0f lex %.3f vec %.3f ses %.3f spk %.3f short %.3f has-? %.2f other-speaker %.2f words %.1f both-lanes %.2f\n",
			x.name, a.n, a.lex/a.n, a.vec/a.n, a.ses/a.n, a.spk/a.n, a.short/a.n, a.question/a.n, a.named/a.n, a.words/a.n, a.both/a.n)
	}
	return nil
}
