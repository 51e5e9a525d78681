package main

import (
	"encoding/gob"
	"fmt"
	"os"
	"strconv"

	"github.com/mneme-ai/mneme/rank"
)

// ctxvec: a turn's similarity taken with the previous turn's vector added
// at weight gprev (and the next at gnext), as if it were embedded with its
// context.
func ctxvec(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	f, err := os.Open(args[0] + ".turns")
	if err != nil {
		return err
	}
	var all map[string][]float32
	if err := gob.NewDecoder(f).Decode(&all); err != nil {
		return err
	}
	gprev, _ := strconv.ParseFloat(args[1], 64)
	gnext, _ := strconv.ParseFloat(args[2], 64)
	mix, _ := strconv.ParseFloat(args[3], 64) // weight of the context similarity against the turn's own
	p := rank.Default()
	var cats catMeans
	for i := range qs {
		q := &qs[i]
		r := 1.0
		if len(q.Terms) > 0 {
			qv := make([]float64, len(q.QVec))
			for j, x := range q.QVec {
				qv[j] = float64(x)
			}
			found := append([]rank.Found(nil), q.Found...)
			for j := range found {
				if len(q.IDs[j]) == 0 || q.Vecs[j] == nil {
					continue
				}
				s, t := split(q.IDs[j][0])
				v := make([]float32, len(q.Vecs[j]))
				copy(v, q.Vecs[j])
				for _, side := range []struct {
					d int
					g float64
				}{{-1, gprev}, {1, gnext}} {
					if w := all[fmt.Sprintf("%s/D%d:%d", q.Conv, s, t+side.d)]; w != nil && side.g > 0 {
						for k := range v {
							v[k] += float32(side.g) * w[k]
						}
					}
				}
				found[j].Similarity = (1-mix)*found[j].Similarity + mix*cos(qv, v)
			}
			qq := *q
			qq.Found = found
			r = recallAt(p, &qq, 10)
		}
		cats.add(q.Cat, r)
	}
	sum := cats.means()
	fmt.Println(line(fmt.Sprintf("ctx prev %g next %g mix %g", gprev, gnext, mix), sum))
	return nil
}
