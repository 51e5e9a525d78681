package main

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/rank"
)

// enumerates: the question asks for several things (experiment).
func enumerates(q string) bool {
	l := strings.ToLower(q)
	if strings.Contains(l, "how many") {
		return true
	}
	w := textnorm.Words(l)
	for i := 0; i < len(w) && i < 4; i++ {
		if w[i] != "what" && w[i] != "which" {
			continue
		}
		for _, y := range w[i+1 : min(len(w), i+3)] {
			if strings.HasSuffix(y, "s") && !strings.HasSuffix(y, "ss") && !map[string]bool{"is": true, "was": true, "does": true, "has": true, "his": true, "this": true, "us": true, "its": true, "as": true}[y] {
				return true
			}
		}
	}
	return false
}

// shapeEval: variants apply to enumerating questions only.
func shapeEval(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	names, ps, err := variants(args[1:])
	if err != nil {
		return err
	}
	for i, p := range ps {
		sum, n := map[string]float64{}, map[string]float64{}
		for j := range qs {
			q := &qs[j]
			use := rank.Default()
			if enumerates(q.Text) {
				use = p
			}
			r := recallAt(use, q, 10)
			for _, g := range []string{fmt.Sprint(q.Cat), "all", q.Conv} {
				if q.Cat == 5 && g == "all" {
					continue
				}
				sum[g] += r
				n[g]++
			}
		}
		for g := range sum {
			sum[g] /= n[g]
		}
		fmt.Println(line(names[i], sum), fmt.Sprintf("26 %.4f 30 %.4f 41 %.4f 42 %.4f 43 %.4f", sum["conv-26"], sum["conv-30"], sum["conv-41"], sum["conv-42"], sum["conv-43"]))
	}
	return nil
}
