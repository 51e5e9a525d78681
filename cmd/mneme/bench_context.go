package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// contextReport is what `bench locomo --context N` measured: per group (a
// category, or overall_1_4) the share of evidence turns that survive into
// a package of N tokens ("kept": a span of the turn is in the package;
// "whole": all of its text is), and the tokens the packages used.
type contextReport struct {
	Budget     int                           `json:"budget"`
	Queries    int                           `json:"queries"`
	MeanTokens float64                       `json:"mean_tokens"`
	MaxTokens  int                           `json:"max_tokens"`
	P50MS      float64                       `json:"p50_ms"`
	P99MS      float64                       `json:"p99_ms"`
	Groups     map[string]map[string]float64 `json:"groups"`
}

// benchContext builds one package per LoCoMo question, with req's options.
func benchContext(a *app, eng *mneme.Engine, path string, budget int, req mneme.RecallRequest, owner map[string][]string) (*contextReport, error) {
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	rep := &contextReport{Budget: budget}
	sums := map[string]map[string]float64{}
	add := func(group, metric string, v float64) {
		if sums[group] == nil {
			sums[group] = map[string]float64{}
		}
		sums[group][metric] += v
	}
	var lat []time.Duration
	tokens := 0
	for _, c := range convs {
		for _, q := range c.Questions {
			r := contextpack.Request{RecallRequest: req, Budget: contextpack.Budget(budget)}
			r.Query, r.Project = q.Text, c.ID
			t0 := time.Now()
			pkg, err := contextpack.Build(a.ctx, eng, r, mneme.Internal)
			took := time.Since(t0)
			var kept, whole []string
			switch {
			case mneme.ErrorCode(err) == mneme.EINVALID: // a question of punctuation: an empty package
			case err != nil:
				return nil, err
			default:
				kept, whole = packaged(pkg, owner)
				tokens += pkg.TokensUsed
				rep.MaxTokens = max(rep.MaxTokens, pkg.TokensUsed)
			}
			lat = append(lat, took)
			groups := []string{fmt.Sprint(q.Category)}
			if q.Category >= 1 && q.Category <= 4 {
				groups = append(groups, "overall_1_4")
			}
			for _, g := range groups {
				add(g, "n", 1)
				add(g, "kept", eval.RecallAt(kept, q.Evidence, len(kept)))
				add(g, "whole", eval.RecallAt(whole, q.Evidence, len(whole)))
			}
		}
	}
	rep.Queries = len(lat)
	if rep.Queries > 0 {
		rep.MeanTokens = float64(int(float64(tokens)/float64(rep.Queries)*10+0.5)) / 10
	}
	m := finish("context", sums, lat)
	rep.Groups, rep.P50MS, rep.P99MS = m.Groups, m.QueryP50MS, m.QueryP99MS
	return rep, nil
}

// packaged lists the benchmark ids of the records in pkg: all of them,
// and those whose whole text is in it.
func packaged(pkg *contextpack.Package, owner map[string][]string) (kept, whole []string) {
	for _, g := range pkg.Groups {
		for _, it := range g.Items {
			kept = append(kept, owner[it.ID]...)
			if it.Whole {
				whole = append(whole, owner[it.ID]...)
			}
		}
	}
	return kept, whole
}

// benchItem is one benchmark text as it was stored: its project, text and
// benchmark id (LoCoMo dia_id, BEIR doc_id).
type benchItem struct{ project, text, id string }

// reuseOwners rebuilds the record id → benchmark ids map of a home a
// previous `bench --keep` filled: an item finds its record by its text's
// content hash in its project (identical texts share a record, as when they
// were written), else by the id in the record's meta (a text redacted on
// the way in). It returns the map and the number of items found.
func reuseOwners(a *app, eng *mneme.Engine, items []benchItem) (map[string][]string, int, error) {
	byHash, byID := map[[2]string]string{}, map[[2]string]string{}
	err := eng.Each(a.ctx, mneme.Filter{Clearance: mneme.Internal}, func(r *mneme.Record) error {
		var meta struct {
			DiaID string `json:"dia_id"`
			DocID string `json:"doc_id"`
		}
		json.Unmarshal(r.Meta, &meta) //nolint:errcheck // benchmark records carry it
		byHash[[2]string{r.Project, r.ContentHash}] = r.ID
		if id := cmp.Or(meta.DiaID, meta.DocID); id != "" {
			byID[[2]string{r.Project, id}] = r.ID
		}
		return nil
	})
	owner, n := map[string][]string{}, 0
	for _, it := range items {
		id, ok := byHash[[2]string{it.project, textnorm.Hash(it.text)}]
		if !ok {
			id, ok = byID[[2]string{it.project, it.id}]
		}
		if ok {
			owner[id] = append(owner[id], it.id)
			n++
		}
	}
	return owner, n, err
}

func printContextReport(a *app, rep *contextReport) {
	fmt.Fprintf(a.stdout, "\ncontext packages at %d tokens: %d queries, mean %.1f tokens (max %d), p50 %.2f ms, p99 %.2f ms\n",
		rep.Budget, rep.Queries, rep.MeanTokens, rep.MaxTokens, rep.P50MS, rep.P99MS)
	for _, g := range []string{"1", "2", "3", "4", "5", "overall_1_4"} {
		if m := rep.Groups[g]; m != nil {
			fmt.Fprintf(a.stdout, "  %-12s  evidence kept %.4f  whole %.4f  n %g\n", g, m["kept"], m["whole"], m["n"])
		}
	}
}
