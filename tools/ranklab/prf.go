package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/mneme-ai/mneme/rank"
)

// prf: vector feedback. The query vector moves toward the mean of the
// first round's top m hits by beta; candidates' similarities are taken
// again and fusion runs again.
func prf(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	beta, _ := strconv.ParseFloat(args[1], 64)
	m, _ := strconv.Atoi(args[2])
	p := rank.Default()
	var cats catMeans
	missing := 0
	for i := range qs {
		q := &qs[i]
		r := 1.0
		if len(q.Terms) > 0 {
			cands := p.Fuse(q.Found, p.Fusion, p.Alpha, true, true)
			p.Boosts(q.Text, q.Terms, now, cands)
			rank.ByScore(cands)
			c := make([]float64, len(q.QVec))
			for j, x := range q.QVec {
				c[j] = float64(x)
			}
			used := 0
			for _, cd := range cands {
				if used == m {
					break
				}
				v := q.Vecs[cd.Index]
				if v == nil || !p.Evidence(cd) {
					continue
				}
				for j, x := range v {
					c[j] += beta / float64(m) * float64(x)
				}
				used++
			}
			found := append([]rank.Found(nil), q.Found...)
			for j := range found {
				if v := q.Vecs[j]; v != nil {
					found[j].Similarity = cos(c, v)
				} else {
					missing++
				}
			}
			qq := *q
			qq.Found = found
			r = recallAt(p, &qq, 10)
		}
		cats.add(q.Cat, r)
	}
	sum := cats.means()
	fmt.Println(line(fmt.Sprintf("prf beta %g m %d (no vec %d)", beta, m, missing), sum))
	return nil
}

func cos(a []float64, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += a[i] * float64(b[i])
		na += a[i] * a[i]
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}
