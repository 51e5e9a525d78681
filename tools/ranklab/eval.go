package main

import (
	"encoding/gob"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// now is when the questions are asked: after every conversation.
var now = time.Now()

func load(path string) ([]Q, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []Q
	return qs, gob.NewDecoder(f).Decode(&qs)
}

// recallAt ranks q's candidates as the Engine does in hybrid (no
// feedback, no rerank) and returns R@k.
func recallAt(p rank.Profile, q *Q, k int) float64 {
	if len(q.Terms) == 0 {
		return eval.RecallAt(nil, q.Evidence, 1000)
	}
	cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
	p.Boosts(q.Text, q.Terms, now, cands)
	rank.ByScore(cands)
	var ids []string
	n := 0
	for _, c := range cands {
		if !p.Evidence(c) {
			continue
		}
		ids = append(ids, q.IDs[c.Index]...)
		if n++; n == k {
			break
		}
	}
	return eval.RecallAt(ids, q.Evidence, 1000+len(ids))
}

// score is R@10 per category (1-4, 5) and overall 1-4 over qs.
func score(p rank.Profile, qs []Q) map[string]float64 {
	sum, n := map[string]float64{}, map[string]float64{}
	for i := range qs {
		q := &qs[i]
		r := recallAt(p, q, 10)
		g := []string{fmt.Sprint(q.Cat)}
		if q.Cat <= 4 {
			g = append(g, "all")
		}
		for _, x := range g {
			sum[x] += r
			n[x]++
		}
	}
	for x := range sum {
		sum[x] /= n[x]
	}
	return sum
}

func line(name string, s map[string]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s", name)
	keys := []string{"1", "2", "3", "4", "5", "all"}
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %.4f", k, s[k])
	}
	return b.String()
}

// variants parses args into profiles (default first): FIELD=V1,V2 is one
// profile per value; F1=V1+F2=V2+... sets several fields at once, and a
// last FIELD=V1,V2 in it sweeps.
func variants(args []string) ([]string, []rank.Profile, error) {
	names, ps := []string{"default"}, []rank.Profile{rank.Default()}
	for _, a := range args {
		parts := strings.Split(a, "+")
		base := rank.Default()
		for _, fixed := range parts[:len(parts)-1] {
			field, v, _ := strings.Cut(fixed, "=")
			if err := base.Set(field, v); err != nil {
				return nil, nil, err
			}
		}
		prefix := strings.Join(parts[:len(parts)-1], "+")
		if prefix != "" {
			prefix += "+"
		}
		field, vals, _ := strings.Cut(parts[len(parts)-1], "=")
		for _, v := range strings.Split(vals, ",") {
			p := base
			if err := p.Set(field, v); err != nil {
				return nil, nil, err
			}
			names, ps = append(names, prefix+field+"="+v), append(ps, p)
		}
	}
	return names, ps, nil
}

func evalCmd(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ExitOnError)
	fs.Parse(args)
	qs, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	names, ps, err := variants(fs.Args()[1:])
	if err != nil {
		return err
	}
	for i, p := range ps {
		fmt.Println(line(names[i], score(p, qs)))
	}
	return nil
}

// loco leaves one conversation out at a time: for each, the variant best
// on the other four (by overall R@10 of categories 1-4, temporal as the
// tie-break), and its figures on the one left out beside the default's.
func loco(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	names, ps, err := variants(args[1:])
	if err != nil {
		return err
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
		for i, p := range ps {
			s := score(p, train)
			if v := s["all"] + 1e-3*s["2"]; v > bestV {
				best, bestV = i, v
			}
		}
		fmt.Printf("%s: tuned on the others: %s\n  %s\n  %s\n", out, names[best],
			line("default", score(ps[0], test)), line(names[best], score(ps[best], test)))
	}
	return nil
}
