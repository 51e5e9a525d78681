package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/rank"
)

// why classifies the missed evidence turns of the given categories: where
// each ranks overall and in each lane, how many of the question's content
// words it shares (speakers' names aside), its length, whether a turn
// beside it is in the top 10, and how many sessions the question's
// evidence spans.
func why(args []string) error {
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
	count := map[string]int{}
	bump := func(k string) { count[k]++ }
	nq, nmiss := 0, 0
	for i := range qs {
		q := &qs[i]
		if !cats[q.Cat] || len(q.Terms) == 0 {
			continue
		}
		nq++
		cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
		p.Boosts(q.Text, q.Terms, now, cands)
		rank.ByScore(cands)
		pos, byID := map[string]int{}, map[string]*rank.Candidate{}
		var top []string
		n := 0
		for _, c := range cands {
			if !p.Evidence(c) {
				continue
			}
			n++
			for _, id := range q.IDs[c.Index] {
				pos[id], byID[id] = n, c
				if n <= 10 {
					top = append(top, id)
				}
			}
		}
		sessions := map[int]bool{}
		for _, e := range q.Evidence {
			s, _ := split(e)
			sessions[s] = true
		}
		ns := len(sessions)
		if ns > 3 {
			ns = 4
		}
		bump(fmt.Sprintf("q-evidence-sessions=%d", ns))
		bump(fmt.Sprintf("q-evidence-n=%d", min(len(q.Evidence), 6)))
		speakers := map[string]bool{}
		for _, f := range q.Found {
			for _, w := range textnorm.Terms(f.Doc.Speaker) {
				speakers[w] = true
			}
		}
		qw := map[string]bool{}
		for _, t := range q.Terms {
			if !speakers[t] {
				qw[stem5(t)] = true
			}
		}
		for _, e := range q.Evidence {
			r := pos[e]
			if r > 0 && r <= 10 {
				bump("ev-top10")
				continue
			}
			nmiss++
			c := byID[e]
			if c == nil {
				bump("ev-absent")
				continue
			}
			bump("ev-rank=" + bucket(r))
			bump("lex=" + bucket(c.LexRank))
			bump("vec=" + bucket(c.VecRank))
			if c.LexRank > 0 && (c.VecRank == 0 || c.LexRank < c.VecRank) {
				bump("better-lane=lex")
			} else {
				bump("better-lane=vec")
			}
			words := textnorm.Terms(c.Doc.Text)
			share := 0
			for _, w := range words {
				if qw[stem5(w)] {
					share++
				}
			}
			bump(fmt.Sprintf("shared-content-words=%d", min(share, 3)))
			bump("len=" + lenBucket(textnorm.CountWords(c.Doc.Text, 1000)))
			if d := nearest(e, top); d >= 0 && d <= 2 {
				bump("neighbour(<=2)-in-top10")
			} else if d >= 0 {
				bump("same-session-in-top10")
			} else {
				bump("session-not-in-top10")
			}
			if c.Speaker > 0 {
				bump("speaker-named")
			}
		}
	}
	var keys []string
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("questions %d, missed evidence turns %d\n", nq, nmiss)
	for _, k := range keys {
		fmt.Printf("  %-32s %4d\n", k, count[k])
	}
	return nil
}

func stem5(w string) string {
	if len(w) > 5 {
		return w[:5]
	}
	return w
}

func bucket(r int) string {
	switch {
	case r == 0:
		return "none"
	case r <= 10:
		return "1-10"
	case r <= 20:
		return "11-20"
	case r <= 50:
		return "21-50"
	case r <= 100:
		return "51-100"
	default:
		return ">100"
	}
}

func lenBucket(n int) string {
	switch {
	case n < 10:
		return "a<10"
	case n < 20:
		return "b10-19"
	case n < 40:
		return "c20-39"
	default:
		return "d40+"
	}
}
