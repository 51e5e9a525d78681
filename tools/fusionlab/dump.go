// Command fusionlab replays recall's fusion over the candidates of a
// benchmark, so that a fusion scheme is measured in a second instead of a
// bench run (issue 17: how the defaults in docs/performance.md "Choosing the fusion"
// were chosen, and the schemes tried and dropped). It reproduces `mneme
// bench` to the fourth decimal for the schemes the Engine has.
//
// First dump each kept bench home once (the candidates of every question:
// both lanes' ranks and scores, matched terms, speaker, session, event
// time; the pool recall uses, k 25 for LoCoMo and 100 for BEIR):
//
//	mneme bench locomo ../shared/bench/locomo-dev.json --keep --modes hybrid
//	go run ./tools/fusionlab dump -home DIR -data ../shared/bench/locomo-dev.json -out /tmp/locomo.gob
//	mneme bench beir ../shared/bench/nfcorpus --keep --modes hybrid
//	go run ./tools/fusionlab dump -home DIR -data ../shared/bench/nfcorpus -split train,dev,test -out /tmp/nfc.gob
//
// Then run an experiment over the dumps, like
//
//	go run ./tools/fusionlab final /tmp/locomo.gob /tmp/nfc.gob
//
// Figures are per group: L1..L5 the LoCoMo categories (R@10), L14 the
// categories 1-4, Ntrain/Ndev/Ntest NFCorpus's splits (nDCG@10). The
// experiments (see commands): final (alpha sweep with and without the
// session and date boosts), loco (leave one conversation out), terms
// (alpha by query length), qalpha (alpha from per-query features), linfit
// MASK and cv MASK (a learned linear combiner; MASK picks featNames by
// index), norms (lane normalisations), oracle (the best alpha per query),
// floor (the match floor), temporal and perconv (LoCoMo by conversation),
// dates, session, fine, modes, miss, short and shortloco (the short-turn
// penalty), neighbour and diverse (tried and dropped: turns beside a good
// one, fewer hits per session), show CAT N LOCOMO_FILE DUMP.
package main

import (
	"context"
	"encoding/gob"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

type Cand struct {
	IDs              []string
	LexRank, VecRank int
	BM25, Sim        float64
	Matched          int
	HasVector        bool
	Speaker          bool
	Session          string
	Event            int64
	Words            int
}

type Q struct {
	Dataset, Split, Conv string
	Cat                  int
	Text                 string
	Terms                []string
	Evidence             []string
	Qrels                map[string]int
	Cands                []Cand
}

func dump(args []string) error {
	fs := flag.NewFlagSet("dump", flag.ExitOnError)
	home := fs.String("home", "", "kept bench home")
	data := fs.String("data", "", "locomo file or beir dir")
	split := fs.String("split", "", "beir split (several: comma list)")
	out := fs.String("out", "", "gob file")
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
	own := func(project, text, id string) {
		if rid, ok := byHash[[2]string{project, textnorm.Hash(text)}]; ok {
			owner[rid] = append(owner[rid], id)
		} else {
			fmt.Fprintln(os.Stderr, "not found:", id)
		}
	}
	var qs []Q
	if *split == "" {
		convs, err := eval.LoadLoCoMo(*data)
		if err != nil {
			return err
		}
		for _, cv := range convs {
			for _, t := range cv.Turns {
				own(cv.ID, t.Text, t.DiaID)
			}
			for _, q := range cv.Questions {
				qs = append(qs, Q{Dataset: "locomo", Conv: cv.ID, Cat: q.Category, Text: q.Text, Evidence: q.Evidence})
			}
		}
	} else {
		for _, sp := range mneme.SplitList(*split) {
			b, err := eval.LoadBEIR(*data, sp)
			if err != nil {
				return err
			}
			if len(owner) == 0 {
				for _, d := range b.Docs {
					for _, text := range []string{d.Text, d.Title} {
						if mneme.ValidateText(text) == nil {
							own("beir", text, d.ID)
							break
						}
					}
				}
			}
			ids := make([]string, 0, len(b.Queries))
			for id := range b.Queries {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				qs = append(qs, Q{Dataset: "nfcorpus", Split: sp, Conv: "beir", Text: b.Queries[id], Qrels: b.Qrels[id]})
			}
		}
	}
	k := 25
	if *split != "" {
		k = 100
	}
	t0 := time.Now()
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
		found, err := eng.Store().Candidates(ctx, mneme.CandidateQuery{Terms: q.Terms, Filter: f, K: min(1000, max(4*k, 50)), Vector: vecs[0]})
		if err != nil {
			return err
		}
		asked := map[string]bool{}
		for _, t := range q.Terms {
			asked[t] = true
		}
		for _, fc := range found.List {
			r := fc.Record
			sp := false
			for _, w := range textnorm.Terms(r.Speaker) {
				sp = sp || asked[w]
			}
			q.Cands = append(q.Cands, Cand{IDs: owner[r.ID], LexRank: fc.LexicalRank, VecRank: fc.VectorRank, BM25: fc.BM25, Sim: fc.Similarity,
				Matched: len(fc.MatchedTerms), HasVector: fc.HasVector, Speaker: sp, Session: r.SessionID, Event: r.EventTime().UnixNano(),
				Words: len(textnorm.Words(r.Title + " " + r.Text))})
		}
		if i%200 == 0 {
			fmt.Fprintf(os.Stderr, "%d/%d %.0fs\n", i, len(qs), time.Since(t0).Seconds())
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(qs)
}

func main() {
	var err error
	switch os.Args[1] {
	case "dump":
		err = dump(os.Args[2:])
	default:
		err = lab(os.Args[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
