package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/rank"
)

var (
	firstRe  = regexp.MustCompile(`\b(I|I'm|I've|I'd|I'll|my|My|me|we|We|our|Our|us)\b`)
	secondRe = regexp.MustCompile(`(?i)\b(you|your|you're|you've|yours)\b`)
	numRe    = regexp.MustCompile(`\b\d+\b|\b(one|two|three|four|five|six|seven|eight|nine|ten)\b`)
	quoteRe  = regexp.MustCompile(`"[^"]{2,60}"`)
	capRe    = regexp.MustCompile(`[a-z,;] ([A-Z][a-z]+)`)
)

// traits compares the share of each textual trait among the top-10 hits
// that are not evidence and the evidence ranked 11-50, over the missed
// questions of the given categories (the speaker prefix removed).
func traits(args []string) error {
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
	names := []string{"first>second", "first", "second", "number", "quote", "proper-noun", "question", "caption", "first-turn"}
	cnt := map[string][2]float64{}
	var tot [2]float64
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
			side := -1
			switch {
			case n <= 10 && !isEv:
				side = 0
			case n > 10 && n <= 50 && isEv:
				side = 1
			}
			if side < 0 {
				continue
			}
			tot[side]++
			body := strings.TrimPrefix(c.Doc.Text, c.Doc.Speaker+": ")
			cap, _, _ := strings.Cut(body, " [shares:")
			f1, f2 := len(firstRe.FindAllString(cap, -1)), len(secondRe.FindAllString(cap, -1))
			_, t := split(q.IDs[c.Index][0])
			has := map[string]bool{
				"first>second": f1 > f2, "first": f1 > 0, "second": f2 > 0, "number": numRe.MatchString(cap),
				"quote": quoteRe.MatchString(cap), "proper-noun": properNoun(cap, c.Doc.Speaker), "question": strings.Contains(cap, "?"),
				"caption": strings.Contains(body, "[shares:"), "first-turn": t == 1,
			}
			for k, v := range has {
				if v {
					x := cnt[k]
					x[side]++
					cnt[k] = x
				}
			}
		}
	}
	fmt.Printf("top-10 not evidence %.0f, evidence 11-50 %.0f\n", tot[0], tot[1])
	for _, k := range names {
		fmt.Printf("  %-14s %.2f %.2f\n", k, cnt[k][0]/tot[0], cnt[k][1]/tot[1])
	}
	return nil
}

func properNoun(s, speaker string) bool {
	for _, m := range capRe.FindAllStringSubmatch(s, -1) {
		if m[1] != "I" && !strings.Contains(speaker+" Caroline Melanie Mel Jon Gina John Maria Joanna Nate Tim", m[1]) {
			return true
		}
	}
	return false
}
