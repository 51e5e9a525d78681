package main

import (
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// alone: a turn's similarity as the better of its stored vector's (the
// turn after the one before it) and its text's alone, or a mix of the two,
// as if each turn kept both vectors. Args: DUMP VECDUMP HOME DATA MIX...
// (VECDUMP: a dump of the same home with -vectors, for the query vectors;
// MIX: "max", or the weight of the text-alone similarity).
func alone(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	vq, err := load(args[1])
	if err != nil {
		return err
	}
	vecs, err := aloneVectors(args[1]+".alone", args[2], args[3])
	if err != nil {
		return err
	}
	p := rank.Default()
	for _, mix := range args[4:] {
		w, _ := strconv.ParseFloat(mix, 64)
		var cats catMeans
		for i := range qs {
			q := qs[i]
			r := 1.0
			if len(q.Terms) > 0 {
				found := append([]rank.Found(nil), q.Found...)
				for j := range found {
					if len(q.IDs[j]) == 0 {
						continue
					}
					v := vecs[q.Conv+"/"+q.IDs[j][0]]
					if v == nil || !found[j].HasVector {
						continue
					}
					s := dot(vq[i].QVec, v)
					if mix == "max" {
						found[j].Similarity = math.Max(found[j].Similarity, s)
					} else {
						found[j].Similarity = (1-w)*found[j].Similarity + w*s
					}
				}
				q.Found = found
				r = recallAt(p, &q, 10)
			}
			cats.add(q.Cat, r)
		}
		fmt.Println(line("alone "+mix, cats.means()))
	}
	return nil
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// aloneVectors embeds every turn's text alone with the home's embedder,
// by conversation and dia id, cached in path.
func aloneVectors(path, home, data string) (map[string][]float32, error) {
	out := map[string][]float32{}
	if f, err := os.Open(path); err == nil {
		defer f.Close()
		return out, gob.NewDecoder(f).Decode(&out)
	}
	ctx := context.Background()
	c, err := config.Load(config.Options{Home: home, Getenv: os.Getenv})
	if err != nil {
		return nil, err
	}
	eng, err := c.Open(ctx, config.Recall)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	convs, err := eval.LoadLoCoMo(data)
	if err != nil {
		return nil, err
	}
	for _, cv := range convs {
		var texts []string
		for _, t := range cv.Turns {
			texts = append(texts, t.Text)
		}
		got, err := eng.Embedder().Embed(ctx, texts)
		if err != nil {
			return nil, err
		}
		for i, t := range cv.Turns {
			out[cv.ID+"/"+t.DiaID] = got[i]
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return out, gob.NewEncoder(f).Encode(out)
}
