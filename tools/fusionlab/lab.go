package main

import (
	"encoding/gob"
	"fmt"
	"os"
	"strings"

	"github.com/mneme-ai/mneme/internal/eval"
)

func load(paths ...string) []Q {
	var all []Q
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			panic(err)
		}
		var qs []Q
		if err := gob.NewDecoder(f).Decode(&qs); err != nil {
			panic(err)
		}
		f.Close()
		all = append(all, qs...)
	}
	return all
}

// scorer gives each candidate of q a score; nil hides a candidate.
type scorer func(q *Q) []float64

// ranked returns the candidates' indexes best first, top k (ties: newer).
func ranked(q *Q, s []float64, k int) []int {
	better := func(a, b int) bool {
		return s[a] > s[b] || (s[a] == s[b] && q.Cands[a].Event > q.Cands[b].Event)
	}
	top := make([]int, 0, k+1)
	for i := range q.Cands {
		if s[i] < 0 {
			continue
		}
		if len(top) == k && !better(i, top[k-1]) {
			continue
		}
		j := len(top)
		if j < k {
			top = append(top, i)
		} else {
			j = k - 1
		}
		for j > 0 && better(i, top[j-1]) {
			top[j] = top[j-1]
			j--
		}
		top[j] = i
	}
	return top
}

func ids(q *Q, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, q.Cands[i].IDs...)
	}
	return out
}

// metric is one query's figure: R@10 for locomo, nDCG@10 for beir.
func metric(q *Q, s []float64) float64 {
	if q.Dataset == "locomo" {
		return eval.RecallAt(ids(q, ranked(q, s, 10)), q.Evidence, 1<<20)
	}
	return eval.NDCGAt(ids(q, ranked(q, s, 10)), q.Qrels, 10)
}

// group names the query's reporting group.
func group(q *Q) string {
	if q.Dataset == "locomo" {
		return fmt.Sprintf("L%d", q.Cat)
	}
	return "N" + q.Split
}

var groups = []string{"L1", "L2", "L3", "L4", "L14", "L5", "Ntrain", "Ndev", "Ntest", "Ntrainr", "Ndevr", "Ntestr"}

var rOn = false // also recall@10 on beir

var floor = 0.2

// held hides the candidates without evidence, as recall does.
func held(q *Q, s []float64) []float64 {
	for i, c := range q.Cands {
		if c.BM25 <= 0 && !c.Speaker && c.Sim < floor {
			s[i] = -1
		}
	}
	return s
}

// evaluate returns the mean metric per group (L14: categories 1-4).
func evaluate(qs []Q, sc scorer) map[string]float64 {
	sum, n := map[string]float64{}, map[string]float64{}
	for i := range qs {
		q := &qs[i]
		m := 0.0
		if len(q.Cands) > 0 {
			m = metric(q, held(q, sc(q)))
		} else if q.Dataset == "locomo" && len(q.Evidence) == 0 {
			m = 1
		}
		g := group(q)
		sum[g] += m
		n[g]++
		if q.Dataset != "locomo" && len(q.Cands) > 0 && rOn {
			sum[g+"r"] += eval.RecallRelevantAt(ids(q, ranked(q, sc(q), 10)), q.Qrels, 10)
			n[g+"r"]++
		}
		if q.Dataset == "locomo" && q.Cat <= 4 {
			sum["L14"] += m
			n["L14"]++
		}
	}
	for g := range sum {
		sum[g] /= n[g]
	}
	return sum
}

func line(name string, r map[string]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s", name)
	for _, g := range groups {
		if v, ok := r[g]; ok {
			fmt.Fprintf(&b, " %s %.4f", g, v)
		}
	}
	return b.String()
}

// mask reads a feature mask like "0125" (indexes into featNames).
func mask(s string) []bool {
	m := make([]bool, len(featNames))
	for _, c := range s {
		m[c-'0'] = true
	}
	return m
}

// commands are the lab's experiments, each over the dumps named after it
// (and, for some, one argument first).
var commands = map[string]func(args []string){
	"schemes":   func(a []string) { runSchemes(load(a...)) },
	"floor":     func(a []string) { floorCmd(load(a...)) },
	"miss":      func(a []string) { missStats(load(a...), dateBoost(sessionOn(weighted(0.35, 0.1), 0.3), 0.2, 1, 14)) },
	"oracle":    func(a []string) { oracle(load(a...)) },
	"norms":     func(a []string) { sweepNorms(load(a...)) },
	"terms":     func(a []string) { termsGrid(load(a...)) },
	"qalpha":    func(a []string) { fitQAlpha(load(a[1:]...), a[0], []string{"L14", "Ntrain"}) },
	"cv":        func(a []string) { cvLoCoMo(load(a[1:]...), mask(a[0])) },
	"linfit":    func(a []string) { linFit(load(a[1:]...), mask(a[0])) },
	"perconv":   func(a []string) { perConv(load(a...)) },
	"temporal":  func(a []string) { temporalKinds(load(a...)) },
	"session":   func(a []string) { sessionGrid(load(a...)) },
	"sessconv":  func(a []string) { sessionConv(load(a...)) },
	"fine":      func(a []string) { fineGrid(load(a...)) },
	"modes":     func(a []string) { modesSession(load(a...)) },
	"dates":     func(a []string) { dateGrid(load(a...)) },
	"dateconv":  func(a []string) { dateConv(load(a...)) },
	"datedmiss": func(a []string) { datedMiss(load(a...)) },
	"final":     func(a []string) { finalSweep(load(a...)) },
	"loco":      func(a []string) { loco(load(a...)) },
	"neighbour": func(a []string) { neighbourGrid(load(a...)) },
	"short":     func(a []string) { shortSweep(load(a...)) },
	"shortloco": func(a []string) { shortLoco(load(a...)) },
	"diverse":   func(a []string) { diverseGrid(load(a...)) },
	"show": func(a []string) {
		var cat, n int
		fmt.Sscan(a[0], &cat)
		fmt.Sscan(a[1], &n)
		show(load(a[3]), a[2], cat, n)
	},
}

func lab(args []string) error {
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("unknown command %q", args[0])
	}
	cmd(args[1:])
	return nil
}

func runSchemes(qs []Q) {
	for _, name := range order {
		fmt.Println(line(name, evaluate(qs, schemes[name])))
	}
}

func linFit(qs []Q, m []bool) {
	w := fitLinear(qs, m, []string{"L14", "L5", "Ntrain"})
	fmt.Println(line("linear", evaluate(qs, linear(featCache(qs), w))))
}

func init() {
	floorCmd = func(qs []Q) {
		floorStats(qs)
		rOn = true
		for _, f := range []float64{0, 0.1, 0.15, 0.18, 0.2, 0.22, 0.25} {
			fmt.Println(line(fmt.Sprintf("hybrid floor %.2f", f), evaluate(qs, floored(weighted(0.5, 0.1), f, false))))
			fmt.Println(line(fmt.Sprintf("vector floor %.2f", f), evaluate(qs, floored(vectorOnly, f, true))))
		}
	}
}

var floorCmd func([]Q)
