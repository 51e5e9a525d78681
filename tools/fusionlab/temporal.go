package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

var dateRe = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december|20\d\d)\b`)

func tkind(q *Q) string {
	t := strings.ToLower(q.Text)
	switch {
	case dateRe.MatchString(q.Text):
		return "dated"
	case strings.HasPrefix(t, "when") || strings.Contains(t, "how long") || strings.HasPrefix(t, "what year") || strings.HasPrefix(t, "what date"):
		return "when"
	}
	return "other"
}

func temporalKinds(qs []Q) {
	type k struct{ conv, kind string }
	sum, n := map[k]float64{}, map[k]float64{}
	for i := range qs {
		q := &qs[i]
		if q.Dataset != "locomo" || q.Cat != 2 {
			continue
		}
		m := 0.0
		if len(q.Cands) > 0 {
			m = metric(q, held(q, tkScorer(q)))
		}
		for _, key := range []k{{q.Conv, tkind(q)}, {"all", tkind(q)}, {q.Conv, "all"}} {
			sum[key] += m
			n[key]++
		}
	}
	for _, cv := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "all"} {
		fmt.Printf("%-8s", cv)
		for _, kind := range []string{"when", "dated", "other", "all"} {
			key := k{cv, kind}
			if n[key] > 0 {
				fmt.Printf("  %s %.3f (n %.0f)", kind, sum[key]/n[key], n[key])
			}
		}
		fmt.Println()
	}
}

var tkScorer = weighted(0.5, 0.1)

func init() {
	if os.Getenv("LAB_NEW") != "" {
		tkScorer = dateBoost(sessionOn(weighted(0.35, 0.1), 0.3), 0.2, 1, 14)
	}
}
