package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var months = map[string]time.Month{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12}

const mon = `(january|february|march|april|may|june|july|august|september|october|november|december)`

var (
	reDMY = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)? ` + mon + `,? (\d{4})\b`)
	reMDY = regexp.MustCompile(`(?i)\b` + mon + ` (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`)
	reMY  = regexp.MustCompile(`(?i)\b` + mon + `,? (\d{4})\b`)
	reY   = regexp.MustCompile(`\b(20\d\d)\b`)
)

// window parses the first explicit date in text: a day, a month or a year.
func window(text string) (from, to time.Time, ok bool) {
	day := func(d, m, y string) time.Time {
		dd, _ := strconv.Atoi(d)
		yy, _ := strconv.Atoi(y)
		return time.Date(yy, months[strings.ToLower(m)], dd, 0, 0, 0, 0, time.UTC)
	}
	if m := reDMY.FindStringSubmatch(text); m != nil {
		t := day(m[1], m[2], m[3])
		return t, t.AddDate(0, 0, 1), true
	}
	if m := reMDY.FindStringSubmatch(text); m != nil {
		t := day(m[2], m[1], m[3])
		return t, t.AddDate(0, 0, 1), true
	}
	if m := reMY.FindStringSubmatch(text); m != nil {
		t := day("1", m[1], m[2])
		return t, t.AddDate(0, 1, 0), true
	}
	if m := reY.FindStringSubmatch(text); m != nil {
		t := day("1", "january", m[1])
		return t, t.AddDate(1, 0, 0), true
	}
	return
}

// dateBoost adds gamma to candidates whose event time falls in the
// query's window, widened by slack days after it (turns tell of the days
// before their session).
func dateBoost(base scorer, gamma float64, before, after int) scorer {
	return func(q *Q) []float64 {
		s := base(q)
		from, to, ok := window(q.Text)
		if !ok || q.Dataset != "locomo" {
			return s
		}
		lo, hi := from.AddDate(0, 0, -before).UnixNano(), to.AddDate(0, 0, after).UnixNano()
		for i, c := range q.Cands {
			if c.Event >= lo && c.Event < hi {
				s[i] += gamma
			}
		}
		return s
	}
}

func dateGrid(qs []Q) {
	var dated []Q
	for _, q := range qs {
		if _, _, ok := window(q.Text); ok && q.Dataset == "locomo" {
			dated = append(dated, q)
		}
	}
	fmt.Println("dated questions:", len(dated))
	base := sessionOn(weighted(0.35, 0.1), 0.3)
	fmt.Println(line("all, base", evaluate(qs, base)))
	fmt.Println(line("dated, base", evaluate(dated, base)))
	for _, g := range []float64{0.1, 0.2, 0.3} {
		for _, w := range [][2]int{{0, 7}, {1, 14}, {3, 31}} {
			s := dateBoost(base, g, w[0], w[1])
			fmt.Println(line(fmt.Sprintf("dated g %.1f -%d+%d", g, w[0], w[1]), evaluate(dated, s)))
			fmt.Println(line(fmt.Sprintf("all g %.1f -%d+%d", g, w[0], w[1]), evaluate(qs, s)))
		}
	}
}

func dateConv(qs []Q) {
	base := sessionOn(weighted(0.35, 0.1), 0.3)
	for _, cv := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"} {
		var sub []Q
		for _, q := range qs {
			if q.Conv == cv {
				sub = append(sub, q)
			}
		}
		fmt.Println(cv, line("base", evaluate(sub, base)))
		fmt.Println(cv, line("date 0.2", evaluate(sub, dateBoost(base, 0.2, 1, 14))))
	}
}

func datedMiss(qs []Q) {
	var dated []Q
	for _, q := range qs {
		if _, _, ok := window(q.Text); ok && q.Dataset == "locomo" {
			dated = append(dated, q)
		}
	}
	missStats(dated, dateBoost(sessionOn(weighted(0.35, 0.1), 0.3), 0.2, 1, 14))
}

func finalSweep(qs []Q) {
	for a := 0.1; a < 0.91; a += 0.05 {
		fmt.Println(line(fmt.Sprintf("new a=%.2f", a), evaluate(qs, dateBoost(sessionOn(weighted(a, 0.1), 0.3), 0.2, 1, 14))))
	}
	for a := 0.1; a < 0.91; a += 0.05 {
		fmt.Println(line(fmt.Sprintf("old a=%.2f", a), evaluate(qs, weighted(a, 0.1))))
	}
	fmt.Println(line("old rrf", evaluate(qs, rrfScheme(0.2))))
	fmt.Println(line("new rrf", evaluate(qs, dateBoost(sessionOn(rrfScheme(0.2), 0.3), 0.2, 1, 14))))
}
