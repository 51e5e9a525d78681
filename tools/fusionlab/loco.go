package main

import "fmt"

// loco: leave one conversation out. Choose alpha, session and date boosts
// on four conversations (best categories 1-4 R@10), measure on the fifth,
// against today's defaults there.
func loco(qs []Q) {
	convs := []string{"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"}
	type cfg struct{ a, s, d float64 }
	var cfgs []cfg
	for _, a := range []float64{0.3, 0.35, 0.4, 0.5} {
		for _, s := range []float64{0, 0.2, 0.3, 0.4} {
			for _, d := range []float64{0, 0.1, 0.2, 0.3} {
				cfgs = append(cfgs, cfg{a, s, d})
			}
		}
	}
	sc := func(c cfg) scorer { return dateBoost(sessionOn(weighted(c.a, 0.1), c.s), c.d, 1, 14) }
	var all, before, chosen []float64
	for _, held := range convs {
		tr, te := leaveOut(qs, held)
		best, bc := -1.0, cfg{}
		for _, c := range cfgs {
			if v := evaluate(tr, sc(c))["L14"]; v > best {
				best, bc = v, c
			}
		}
		b := evaluate(te, weighted(0.5, 0.1))
		r := evaluate(te, sc(bc))
		d := evaluate(te, sc(cfg{0.35, 0.3, 0.2}))
		fmt.Printf("%s: chosen on the others a %.2f sess %.1f date %.1f (train %.4f)\n  %s\n  %s\n  %s\n", held, bc.a, bc.s, bc.d, best,
			line("held out, today", b), line("held out, chosen", r), line("held out, default", d))
		all, before, chosen = append(all, d["L14"]), append(before, b["L14"]), append(chosen, r["L14"])
	}
	fmt.Println(before, chosen, all)
}

// leaveOut splits qs into the questions of every conversation but held,
// and those of held.
func leaveOut(qs []Q, held string) (others, of []Q) {
	for _, q := range qs {
		if q.Conv == held {
			of = append(of, q)
		} else {
			others = append(others, q)
		}
	}
	return others, of
}
