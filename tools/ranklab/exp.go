package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// rule chooses a question's profile (an experiment on a per-question
// setting).
type rule struct {
	name string
	pick func(q *Q) rank.Profile
	post func(q *Q, kept []*rank.Candidate) []*rank.Candidate // after ranking; nil: none
	mid  func(q *Q, cands []*rank.Candidate)                  // after fusion, before the boosts; nil: none
}

// rules parses KIND=V1,V2 into one rule per value. Kinds:
//
//	spkq:   speaker boost V for questions that neither ask when nor name a time
//	sdiv1:  for questions asking for several things, each further hit of a
//	        session already in the top 10 costs V (sdiv2: beyond two)
//	mmrs:   MMR with lambda V for questions asking for several things
//	rrfmix: weighted fusion plus V times RRF
//	zfuse:  z-scores of both lanes, times V
//	first, fgts, proper: V added to a turn that says I/my/we, says so more
//	        than you/your, or names a proper noun
func rules(args []string) ([]rule, error) {
	def := func(*Q) rank.Profile { return rank.Default() }
	out := []rule{{name: "default", pick: def}}
	for _, a := range args {
		kind, vals, _ := strings.Cut(a, "=")
		for _, v := range strings.Split(vals, ",") {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, err
			}
			var pick func(q *Q) rank.Profile
			var post func(q *Q, kept []*rank.Candidate) []*rank.Candidate
			var mid func(q *Q, cands []*rank.Candidate)
			switch kind {
			case "rrfmix": // weighted fusion plus x times RRF (k 60), scaled to 1 for first in both
				pick = def
				mid = func(q *Q, cands []*rank.Candidate) {
					r := func(n int) float64 {
						if n == 0 {
							return 0
						}
						return 1 / float64(60+n)
					}
					for _, c := range cands {
						c.Fused += x * (r(c.LexRank) + r(c.VecRank)) / (2 * r(1))
						c.Score = c.Fused
					}
				}
			case "first", "fgts", "proper", "firstspk":
				pick = def
				k := kind
				mid = func(q *Q, cands []*rank.Candidate) {
					for _, c := range cands {
						if c.Doc.Session == "" {
							continue
						}
						body := strings.TrimPrefix(c.Doc.Text, c.Doc.Speaker+": ")
						body, _, _ = strings.Cut(body, " [shares:")
						f1, f2 := len(firstRe.FindAllString(body, -1)), len(secondRe.FindAllString(body, -1))
						var ok bool
						switch k {
						case "first":
							ok = f1 > 0
						case "fgts":
							ok = f1 > f2
						case "proper":
							ok = properNoun(body, c.Doc.Speaker)
						}
						if ok {
							c.Fused += x
							c.Score = c.Fused
						}
					}
				}
			case "zfuse": // z-scores of both lanes over the candidates, alpha 0.35, times x, plus 0.5
				pick = def
				mid = func(q *Q, cands []*rank.Candidate) { zfuse(cands, x) }
			case "sdiv1", "sdiv2": // session diversity for questions asking for several things
				m := 1
				if kind == "sdiv2" {
					m = 2
				}
				pick = def
				post = func(q *Q, kept []*rank.Candidate) []*rank.Candidate {
					if !rank.AsksSeveral(q.Text) {
						return kept
					}
					return sessDiv(kept, x, m, 10)
				}
			case "mmrs": // MMR for questions asking for several things
				pick = def
				post = func(q *Q, kept []*rank.Candidate) []*rank.Candidate {
					if !rank.AsksSeveral(q.Text) {
						return kept
					}
					return rank.MMR(kept, x, 10)
				}
			case "spkq":
				pick = func(q *Q) rank.Profile {
					p := rank.Default()
					if _, named := rank.Named(q.Text, now); !rank.AsksWhen(q.Text) && !named {
						p.SpeakerBoost = x
					}
					return p
				}
			default:
				return nil, fmt.Errorf("unknown rule %q", kind)
			}
			out = append(out, rule{kind + "=" + v, pick, post, mid})
		}
	}
	return out, nil
}

func scoreRule(r rule, qs []Q) map[string]float64 {
	var c catMeans
	for i := range qs {
		q := &qs[i]
		c.add(q.Cat, recallPost(r.pick(q), q, 10, r.post, r.mid))
	}
	return c.means()
}

// exp prints each rule's figures, then leaves one conversation out at a
// time: the rule best on the other four and its figures on the one left
// out beside the default's.
func exp(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	rs, err := rules(args[1:])
	if err != nil {
		return err
	}
	for _, r := range rs {
		fmt.Println(line(r.name, scoreRule(r, qs)))
	}
	convs := map[string]bool{}
	for _, q := range qs {
		convs[q.Conv] = true
	}
	var order []string
	for c := range convs {
		order = append(order, c)
	}
	sort.Strings(order)
	for _, out := range order {
		var train, test []Q
		for _, q := range qs {
			if q.Conv == out {
				test = append(test, q)
			} else {
				train = append(train, q)
			}
		}
		best, bestV := 0, -1.0
		for i, r := range rs {
			s := scoreRule(r, train)
			if v := s["all"] + 1e-3*s["2"]; v > bestV {
				best, bestV = i, v
			}
		}
		fmt.Printf("%s: chosen on the others: %s\n  %s\n  %s\n", out, rs[best].name,
			line("default", scoreRule(rs[0], test)), line(rs[best].name, scoreRule(rs[best], test)))
	}
	return nil
}

// recallPost is recallAt with a stage after ranking.
func recallPost(p rank.Profile, q *Q, k int, post func(*Q, []*rank.Candidate) []*rank.Candidate, mid func(*Q, []*rank.Candidate)) float64 {
	if post == nil && mid == nil || len(q.Terms) == 0 {
		return recallAt(p, q, k)
	}
	cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
	if mid != nil {
		mid(q, cands)
	}
	p.Boosts(q.Text, q.Terms, now, cands)
	rank.ByScore(cands)
	var kept []*rank.Candidate
	for _, c := range cands {
		if p.Evidence(c) {
			kept = append(kept, c)
		}
	}
	if post != nil {
		kept = post(q, kept)
	}
	var ids []string
	for _, c := range kept[:min(k, len(kept))] {
		ids = append(ids, q.IDs[c.Index]...)
	}
	return eval.RecallAt(ids, q.Evidence, 1000+len(ids))
}

func zfuse(cands []*rank.Candidate, scale float64) {
	var sl, sv, ql, qv, n float64
	for _, c := range cands {
		sl, sv, ql, qv, n = sl+c.LexScore, sv+c.VecScore, ql+c.LexScore*c.LexScore, qv+c.VecScore*c.VecScore, n+1
	}
	ml, mv := sl/n, sv/n
	dl, dv := math.Sqrt(max(1e-9, ql/n-ml*ml)), math.Sqrt(max(1e-9, qv/n-mv*mv))
	for _, c := range cands {
		c.Fused = max(0, 0.5+scale*(0.35*(c.LexScore-ml)/dl+0.65*(c.VecScore-mv)/dv))
		c.Score = c.Fused
	}
}

// forms splits categories 1-4 by question form (asks several, asks when,
// names a time, other) and prints R@10 and counts of each.
func forms(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	p := rank.Default()
	sum, n := map[string]float64{}, map[string]float64{}
	for i := range qs {
		q := &qs[i]
		if len(q.Terms) == 0 {
			continue
		}
		form := "other"
		_, named := rank.Named(q.Text, now)
		switch {
		case named:
			form = "names-time"
		case rank.AsksWhen(q.Text):
			form = "when"
		case rank.AsksSeveral(q.Text):
			form = "several"
		}
		k := fmt.Sprintf("cat%d %s", q.Cat, form)
		sum[k] += recallAt(p, q, 10)
		n[k]++
	}
	var keys []string
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%-22s n %4.0f R@10 %.3f missing %.1f\n", k, n[k], sum[k]/n[k], n[k]-sum[k])
	}
	return nil
}
