package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/rank"
)

// qname: the query embedded with the speakers' names replaced, each
// candidate's similarity taken again with its stored vector (the lexical
// lane unchanged), then ranked with a profile. Args: VECDUMP HOME
// VARIANT... where VARIANT is REPL[/POSS]:W[+FIELD=V...]: a name becomes
// REPL ("-" drops it), a name with 's POSS (REPL if none), or REPL
// "first": rank.FirstPerson (I, my; a name of several words once); the similarity
// is (1-W)·old + W·new. Prints each variant, then leaves one conversation
// out at a time (the variant best on the other four).
func qname(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	ctx := context.Background()
	c, err := config.Load(config.Options{Home: args[1], Getenv: os.Getenv})
	if err != nil {
		return err
	}
	eng, err := c.Open(ctx, config.Recall)
	if err != nil {
		return err
	}
	defer eng.Close()
	names := map[string][]string{}
	for _, q := range qs {
		if _, ok := names[q.Conv]; ok {
			continue
		}
		seen := map[string]bool{}
		for _, f := range q.Found {
			for _, w := range strings.Fields(f.Doc.Speaker) {
				if !seen[w] {
					seen[w] = true
					names[q.Conv] = append(names[q.Conv], w)
				}
			}
		}
	}
	vecCache := map[string][][]float32{}
	if os.Getenv("NOPREFIX") != "" { // experiment: turns embedded without their "<speaker>: "
		turns, err := prefixFreeVectors(args[0]+".noprefix", args[1], os.Getenv("NOPREFIX"))
		if err != nil {
			return err
		}
		for i := range qs {
			for j := range qs[i].Vecs {
				if len(qs[i].IDs[j]) > 0 && turns[qs[i].Conv+"/"+qs[i].IDs[j][0]] != nil {
					qs[i].Vecs[j] = turns[qs[i].Conv+"/"+qs[i].IDs[j][0]]
				}
			}
		}
		texts := make([]string, len(qs))
		for i := range qs {
			texts[i] = qs[i].Text
		}
		qv, err := eng.Embedder().Embed(ctx, texts)
		if err != nil {
			return err
		}
		for i := range qs {
			for j := range qs[i].Found {
				if qs[i].Found[j].HasVector && qs[i].Vecs[j] != nil {
					qs[i].Found[j].Similarity = dot(qv[i], qs[i].Vecs[j])
				}
			}
		}
	}
	type variant struct {
		name string
		per  []float64
	}
	var vs []variant
	for _, spec := range append([]string{"default"}, args[2:]...) {
		p := rank.Default()
		var qv [][]float32
		w := 0.0
		if spec != "default" {
			head, rest, _ := strings.Cut(spec, "+")
			for _, kv := range strings.Split(rest, "+") {
				if f, v, ok := strings.Cut(kv, "="); ok {
					if err := p.Set(f, v); err != nil {
						return err
					}
				}
			}
			repl, ws, _ := strings.Cut(head, ":")
			w, _ = strconv.ParseFloat(ws, 64)
			if qv = vecCache[repl]; qv == nil {
				r, poss, ok := strings.Cut(repl, "/")
				if !ok {
					poss = r
				}
				if r == "-" {
					r = ""
				}
				if poss == "-" {
					poss = ""
				}
				texts := make([]string, len(qs))
				for i, q := range qs {
					if repl == "first" { // the function in package rank
						texts[i] = rank.FirstPerson(q.Text, names[q.Conv])
						continue
					}
					t := q.Text
					named := 0
					for _, n := range names[q.Conv] {
						if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(t) {
							named++
						}
					}
					if named > 1 && os.Getenv("QONE") != "" {
						texts[i] = t
						continue
					}
					for _, n := range names[q.Conv] {
						t = regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`('s|’s)`).ReplaceAllString(t, poss)
						t = regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\b`).ReplaceAllString(t, r)
					}
					texts[i] = strings.Join(strings.Fields(t), " ")
				}
				fmt.Fprintln(os.Stderr, texts[3], "|", texts[500])
				if qv, err = eng.Embedder().Embed(ctx, texts); err != nil {
					return err
				}
				vecCache[repl] = qv
			}
		}
		per := make([]float64, len(qs))
		for i := range qs {
			q := qs[i]
			per[i] = 1
			if len(q.Terms) == 0 {
				continue
			}
			if qv != nil {
				found := append([]rank.Found(nil), q.Found...)
				for j := range found {
					if found[j].HasVector && q.Vecs[j] != nil {
						found[j].Similarity = (1-w)*found[j].Similarity + w*dot(qv[i], q.Vecs[j])
					}
				}
				q.Found = found
			}
			per[i] = recallAt(p, &q, 10)
		}
		vs = append(vs, variant{spec, per})
	}
	if os.Getenv("QDIFF") != "" && len(vs) > 1 {
		a, b := vs[0], vs[1]
		for i := range qs {
			if a.per[i] != b.per[i] && qs[i].Conv == os.Getenv("QDIFF") {
				fmt.Printf("cat %d %.2f -> %.2f %s %v\n", qs[i].Cat, a.per[i], b.per[i], qs[i].Text, qs[i].Evidence)
			}
		}
	}
	for _, v := range vs[1:] {
		up, down, d := 0, 0, 0.0
		for i := range qs {
			if qs[i].Cat > 4 {
				continue
			}
			x := v.per[i] - vs[0].per[i]
			d += x
			if x > 0 {
				up++
			} else if x < 0 {
				down++
			}
		}
		fmt.Printf("%s: questions up %d, down %d, net %.2f\n", v.name, up, down, d)
	}
	means := func(v variant, keep func(q *Q) bool) map[string]float64 {
		var cm catMeans
		for i := range qs {
			if keep(&qs[i]) {
				cm.add(qs[i].Cat, v.per[i])
			}
		}
		return cm.means()
	}
	all := func(*Q) bool { return true }
	for _, v := range vs {
		var per []string
		for _, cv := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"} {
			per = append(per, fmt.Sprintf("%.4f", means(v, func(q *Q) bool { return q.Conv == cv })["all"]))
		}
		fmt.Println(line(v.name, means(v, all)), per)
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
		best, bestV := 0, -1.0
		for i, v := range vs {
			s := means(v, func(q *Q) bool { return q.Conv != out })
			if x := s["all"] + 1e-3*s["2"]; x > bestV {
				best, bestV = i, x
			}
		}
		test := func(q *Q) bool { return q.Conv == out }
		fmt.Printf("%s: chosen on the others: %s\n  %s\n  %s\n", out, vs[best].name, line("default", means(vs[0], test)), line(vs[best].name, means(vs[best], test)))
	}
	return nil
}
