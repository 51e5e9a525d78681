package main

import (
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"strings"

	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/eval"
)

// prefixFreeVectors embeds every turn as the Engine does (the turn before
// it in its session, a line break, the turn) but with each turn's leading
// "<speaker>: " removed, cached in path; keyed by conversation and dia id.
func prefixFreeVectors(path, home, data string) (map[string][]float32, error) {
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
		for i, t := range cv.Turns {
			s := strings.TrimPrefix(t.Text, t.Speaker+": ")
			if i > 0 && cv.Turns[i-1].Session == t.Session {
				p := cv.Turns[i-1]
				s = strings.TrimPrefix(p.Text, p.Speaker+": ") + "\n" + s
			}
			texts = append(texts, s)
		}
		got, err := eng.Embedder().Embed(ctx, texts)
		if err != nil {
			return nil, err
		}
		for i, t := range cv.Turns {
			out[cv.ID+"/"+t.DiaID] = got[i]
		}
		fmt.Fprintln(os.Stderr, cv.ID)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return out, gob.NewEncoder(f).Encode(out)
}
