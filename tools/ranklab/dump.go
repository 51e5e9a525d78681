package main

import (
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/rank"
)

// Q is a question with the store's candidates for it.
type Q struct {
	Conv     string
	Cat      int
	Text     string
	Terms    []string
	Evidence []string
	Found    []rank.Found
	IDs      [][]string  // per candidate, the benchmark ids it stands for
	QVec     []float32   // experiment: the query's vector (-vectors)
	Vecs     [][]float32 // experiment: each candidate's (-vectors)
}

func dump(args []string) error {
	fs := flag.NewFlagSet("dump", flag.ExitOnError)
	home := fs.String("home", "", "kept bench home")
	data := fs.String("data", "", "locomo file")
	out := fs.String("out", "", "gob file")
	withVecs := fs.Bool("vectors", false, "experiment: keep the vectors")
	pool := fs.Int("k", 100, "candidates per lane (the Engine's at k 25)")
	names := fs.String("names", "", "experiment: drop or half the speakers' names in the lexical query")
	fs.Parse(args)
	ctx := context.Background()
	c, err := config.Load(config.Options{Home: *home, Getenv: os.Getenv})
	if err != nil {
		return err
	}
	eng, err := c.Open(ctx, config.Recall)
	if err != nil {
		return err
	}
	defer eng.Close()
	owner := map[string][]string{}
	byHash := map[[2]string]string{}
	eng.Each(ctx, mneme.Filter{Clearance: mneme.Internal}, func(r *mneme.Record) error {
		byHash[[2]string{r.Project, r.ContentHash}] = r.ID
		return nil
	})
	convs, err := eval.LoadLoCoMo(*data)
	if err != nil {
		return err
	}
	if *withVecs { // every turn's vector, by conversation and dia id
		all := map[string][]float32{}
		for _, cv := range convs {
			var ids []string
			var dias []string
			for _, t := range cv.Turns {
				if rid, ok := byHash[[2]string{cv.ID, textnorm.Hash(t.Text)}]; ok {
					ids, dias = append(ids, rid), append(dias, t.DiaID)
				}
			}
			got, err := eng.Store().(mneme.Copier).Vectors(ctx, ids)
			if err != nil {
				return err
			}
			for i, id := range ids {
				all[cv.ID+"/"+dias[i]] = got[id]
			}
		}
		f, err := os.Create(*out + ".turns")
		if err != nil {
			return err
		}
		gob.NewEncoder(f).Encode(all)
		f.Close()
	}
	var qs []Q
	speakers := map[string]map[string]bool{}
	for _, cv := range convs {
		speakers[cv.ID] = map[string]bool{}
		for _, t := range cv.Turns {
			for _, w := range textnorm.Terms(t.Speaker) {
				speakers[cv.ID][w] = true
			}
		}
	}
	for _, cv := range convs {
		for _, t := range cv.Turns {
			if rid, ok := byHash[[2]string{cv.ID, textnorm.Hash(t.Text)}]; ok {
				owner[rid] = append(owner[rid], t.DiaID)
			}
		}
		for _, q := range cv.Questions {
			qs = append(qs, Q{Conv: cv.ID, Cat: q.Category, Text: q.Text, Evidence: q.Evidence})
		}
	}
	for i := range qs {
		q := &qs[i]
		q.Terms = textnorm.Terms(q.Text)
		if len(q.Terms) == 0 {
			continue
		}
		vecs, err := eng.Embedder().Embed(ctx, []string{q.Text})
		if err != nil {
			return err
		}
		f := mneme.Filter{Project: q.Conv, Clearance: mneme.Internal, Now: time.Now().UTC()}
		f.Check()
		lex := textnorm.QueryTerms(q.Text)
		if *names != "" {
			var kept []string
			for _, t := range lex {
				if !speakers[q.Conv][t] {
					kept = append(kept, t)
					if *names == "half" {
						kept = append(kept, t)
					}
				} else if *names == "half" {
					kept = append(kept, t)
				}
			}
			if len(kept) > 0 {
				lex = kept
			}
		}
		found, err := eng.Store().Candidates(ctx, mneme.CandidateQuery{Terms: lex, Filter: f, K: *pool, Vector: vecs[0]})
		if err != nil {
			return err
		}
		for _, fc := range found.List {
			r := fc.Record
			q.Found = append(q.Found, rank.Found{Doc: rank.Doc{ID: r.ID, Title: r.Title, Text: r.Text, Speaker: r.Speaker,
				Session: r.SessionID, Type: string(r.Type), Time: r.EventTime()},
				LexicalRank: fc.LexicalRank, BM25: fc.BM25, Matched: fc.MatchedTerms, VectorRank: fc.VectorRank,
				Similarity: fc.Similarity, HasVector: fc.HasVector})
			q.IDs = append(q.IDs, owner[r.ID])
		}
		if *withVecs {
			q.QVec = vecs[0]
			var ids []string
			for _, fc := range found.List {
				ids = append(ids, fc.Record.ID)
			}
			got, err := eng.Store().(mneme.Copier).Vectors(ctx, ids)
			if err != nil {
				return err
			}
			for _, id := range ids {
				q.Vecs = append(q.Vecs, got[id])
			}
		}
		if i%200 == 0 {
			fmt.Fprintf(os.Stderr, "%d/%d\n", i, len(qs))
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(qs)
}
