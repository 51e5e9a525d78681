package main

import (
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/rank"
)

// sent: a turn's similarity raised toward its best sentence's (each
// sentence of its text embedded alone, the speaker's name left out), as
// if a long turn kept a vector per sentence. Args: VECDUMP HOME DATA W...
// (W: the share of the gap to the best sentence's similarity taken).
func sent(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	vecs, err := sentenceVectors(args[0]+".sent", args[1], args[2])
	if err != nil {
		return err
	}
	for _, mix := range args[3:] {
		var w float64
		var prof rank.Profile = rank.Default()
		spec, extra, _ := strings.Cut(mix, "+")
		w, _ = strconv.ParseFloat(spec, 64)
		if extra != "" {
			f, v, _ := strings.Cut(extra, "=")
			if err := prof.Set(f, v); err != nil {
				return err
			}
		}
		var cats catMeans
		for i := range qs {
			q := qs[i]
			r := 1.0
			if len(q.Terms) > 0 {
				found := append([]rank.Found(nil), q.Found...)
				for j := range found {
					if len(q.IDs[j]) == 0 || !found[j].HasVector {
						continue
					}
					best := math.Inf(-1)
					for _, v := range vecs[q.Conv+"/"+q.IDs[j][0]] {
						best = math.Max(best, dot(q.QVec, v))
					}
					if best > found[j].Similarity {
						found[j].Similarity += w * (best - found[j].Similarity)
					}
				}
				q.Found = found
				r = recallAt(prof, &q, 10)
			}
			cats.add(q.Cat, r)
		}
		fmt.Println(line("sent "+mix, cats.means()))
	}
	return nil
}

// sentenceVectors embeds each sentence of every turn's text (its speaker
// prefix removed) with the home's embedder, cached in path.
func sentenceVectors(path, home, data string) (map[string][][]float32, error) {
	out := map[string][][]float32{}
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
		var texts, keys []string
		for _, t := range cv.Turns {
			body := strings.TrimPrefix(t.Text, t.Speaker+": ")
			for _, r := range contextpack.Sentences(body) {
				texts = append(texts, body[r.Start:r.End])
				keys = append(keys, cv.ID+"/"+t.DiaID)
			}
		}
		got, err := eng.Embedder().Embed(ctx, texts)
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			out[k] = append(out[k], got[i])
		}
		fmt.Fprintln(os.Stderr, cv.ID, len(texts))
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return out, gob.NewEncoder(f).Encode(out)
}
