package main

import "fmt"

// sessionBoost: weighted fusion, then each turn gains beta times the best
// fused score among the other candidates of its session.
func sessionBoost(alpha, beta, speaker float64) scorer {
	return func(q *Q) []float64 {
		base := weighted(alpha, 0)(q)
		best := map[string][2]float64{}
		for i, c := range q.Cands {
			if c.Session == "" {
				continue
			}
			b := best[c.Session]
			if base[i] > b[0] {
				b[0], b[1] = base[i], b[0]
			} else if base[i] > b[1] {
				b[1] = base[i]
			}
			best[c.Session] = b
		}
		out := make([]float64, len(base))
		for i, c := range q.Cands {
			out[i] = base[i]
			if c.Session != "" {
				b := best[c.Session]
				o := b[0]
				if o == base[i] {
					o = b[1]
				}
				out[i] += beta * o
			}
			if c.Speaker {
				out[i] += speaker
			}
		}
		return out
	}
}

func sessionGrid(qs []Q) {
	for _, a := range []float64{0.3, 0.35, 0.4, 0.5} {
		for _, b := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
			fmt.Println(line(fmt.Sprintf("a %.2f sess %.1f", a, b), evaluate(qs, sessionBoost(a, b, 0.1))))
		}
	}
}

func sessionConv(qs []Q) {
	for _, cv := range []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"} {
		var sub []Q
		for _, q := range qs {
			if q.Conv == cv {
				sub = append(sub, q)
			}
		}
		fmt.Println(cv)
		fmt.Println("  ", line("a 0.50 (today)", evaluate(sub, weighted(0.5, 0.1))))
		fmt.Println("  ", line("a 0.35", evaluate(sub, weighted(0.35, 0.1))))
		for _, b := range []float64{0.2, 0.3, 0.4} {
			fmt.Println("  ", line(fmt.Sprintf("a 0.35 sess %.1f", b), evaluate(sub, sessionBoost(0.35, b, 0.1))))
		}
	}
	for _, a := range []float64{0.3, 0.35} {
		for _, b := range []float64{0.5, 0.6, 0.8} {
			fmt.Println(line(fmt.Sprintf("a %.2f sess %.1f", a, b), evaluate(qs, sessionBoost(a, b, 0.1))))
		}
	}
}

func withCoverage(s scorer, delta float64) scorer {
	return func(q *Q) []float64 {
		out := s(q)
		if len(q.Terms) == 0 {
			return out
		}
		for i, c := range q.Cands {
			out[i] += delta * float64(c.Matched) / float64(len(q.Terms))
		}
		return out
	}
}

func fineGrid(qs []Q) {
	for _, a := range []float64{0.28, 0.3, 0.32, 0.35} {
		for _, b := range []float64{0.2, 0.3, 0.4} {
			for _, d := range []float64{0, 0.05, 0.1} {
				fmt.Println(line(fmt.Sprintf("a %.2f sess %.1f cov %.2f", a, b, d), evaluate(qs, withCoverage(sessionBoost(a, b, 0.1), d))))
			}
		}
	}
}

// sessionOn adds beta times the best other fused score of the session to
// a scorer's scores (computed before its speaker boost).
func sessionOn(base scorer, beta float64) scorer {
	return func(q *Q) []float64 {
		s := base(q)
		b0 := make([]float64, len(s))
		for i, c := range q.Cands {
			b0[i] = s[i]
			if c.Speaker {
				b0[i] -= 0.1
			}
		}
		best := map[string][2]float64{}
		for i, c := range q.Cands {
			if s[i] < 0 || c.Session == "" {
				continue
			}
			b := best[c.Session]
			if b0[i] > b[0] {
				b[0], b[1] = b0[i], b[0]
			} else if b0[i] > b[1] {
				b[1] = b0[i]
			}
			best[c.Session] = b
		}
		for i, c := range q.Cands {
			if s[i] < 0 || c.Session == "" {
				continue
			}
			b := best[c.Session]
			o := b[0]
			if o == b0[i] {
				o = b[1]
			}
			s[i] += beta * o
		}
		return s
	}
}

func lexMode(q *Q) []float64 {
	l := lexNorm(q)
	for i, c := range q.Cands {
		if c.LexRank == 0 {
			l[i] = -1
		} else if c.Speaker {
			l[i] += 0.1
		}
	}
	return l
}

func vecMode(q *Q) []float64 {
	out := vectorOnly(q)
	for i, c := range q.Cands {
		if out[i] >= 0 && c.Speaker {
			out[i] += 0.1
		}
	}
	return out
}

func modesSession(qs []Q) {
	for _, b := range []float64{0, 0.3} {
		fmt.Println(line(fmt.Sprintf("lexical sess %.1f", b), evaluate(qs, sessionOn(lexMode, b))))
		fmt.Println(line(fmt.Sprintf("vector sess %.1f", b), evaluate(qs, sessionOn(vecMode, b))))
		fmt.Println(line(fmt.Sprintf("hybrid .35 sess %.1f", b), evaluate(qs, sessionOn(weighted(0.35, 0.1), b))))
	}
}
