package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
	"github.com/mneme-ai/mneme/internal/eval"
)

// groundReport is what `bench ground` measured: precision and recall of
// "supported" on labelled pairs from LoCoMo (a gold answer against its
// evidence turns is supported; the answer to another question of the same
// conversation against them is not), at the calibrated threshold and over
// a sweep, with the embedder and with words alone.
type groundReport struct {
	Pairs     int         `json:"pairs"`
	Positives int         `json:"positives"`
	Runs      []groundRun `json:"runs"`
	P50MS     float64     `json:"p50_ms"`
	P99MS     float64     `json:"p99_ms"`
}

type groundRun struct {
	Embedder string `json:"embedder"` // "" for words alone
	groundStat
	Sweep []groundStat `json:"sweep"`
}

type groundStat struct {
	Threshold float64 `json:"threshold"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

type groundPair struct {
	pkg      *contextpack.Package
	answer   string
	positive bool
}

func benchGround(a *app, eng *mneme.Engine, path string) (*groundReport, error) {
	pairs, err := groundPairs(path)
	if err != nil {
		return nil, err
	}
	rep := &groundReport{Pairs: len(pairs)}
	for _, p := range pairs {
		if p.positive {
			rep.Positives++
		}
	}
	type run struct {
		em ground.Embedder
		id string
	}
	runs := []run{{nil, ""}}
	if em := eng.Embedder(); em != nil {
		runs = append(runs, run{eng, em.Info().ID()})
	}
	for _, r := range runs {
		scores := make([]float64, len(pairs))
		exact := make([]float64, len(pairs)) // every sentence scored with the model, for the sweep
		threshold := ground.LexicalThreshold
		if r.em != nil {
			threshold = ground.Threshold
		}
		var lat []time.Duration
		for i, p := range pairs {
			t0 := time.Now()
			req := ground.Request{Package: p.pkg, Answer: p.answer}
			res, err := ground.Check(a.ctx, r.em, r.id, req)
			if err != nil {
				return nil, err
			}
			lat = append(lat, time.Since(t0))
			scores[i], exact[i] = res.Score, res.Score
			if r.em != nil {
				req.Exhaustive = true
				full, err := ground.Check(a.ctx, r.em, r.id, req)
				if err != nil {
					return nil, err
				}
				if full.Supported != res.Supported {
					return nil, fmt.Errorf("pair %d: the verdict of words alone (%v) is not the model's (%v)", i, res.Supported, full.Supported)
				}
				exact[i] = full.Score
			}
		}
		gr := groundRun{Embedder: r.id, groundStat: stat(pairs, scores, threshold)}
		for t := 0.2; t < 0.91; t += 0.05 {
			gr.Sweep = append(gr.Sweep, stat(pairs, exact, float64(int(t*100+0.5))/100))
		}
		rep.Runs = append(rep.Runs, gr)
		rep.P50MS, rep.P99MS = eval.Percentiles(lat)
	}
	return rep, nil
}

func stat(pairs []groundPair, scores []float64, threshold float64) groundStat {
	tp, fp, fn := 0, 0, 0
	for i, p := range pairs {
		yes := scores[i] >= threshold
		switch {
		case yes && p.positive:
			tp++
		case yes:
			fp++
		case p.positive:
			fn++
		}
	}
	s := groundStat{Threshold: threshold}
	if tp+fp > 0 {
		s.Precision = float64(int(float64(tp)/float64(tp+fp)*10000+0.5)) / 10000
	}
	if tp+fn > 0 {
		s.Recall = float64(int(float64(tp)/float64(tp+fn)*10000+0.5)) / 10000
	}
	return s
}

// groundPairs builds the labelled pairs: for each question of categories
// 1-4 with an answer and evidence, its evidence package with its own
// answer (supported) and with the answer of the question 7 places on in
// the same conversation (not supported), unless the two answers share
// evidence or text.
func groundPairs(path string) ([]groundPair, error) {
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	answers, err := locomoAnswers(path)
	if err != nil {
		return nil, err
	}
	var out []groundPair
	for ci, c := range convs {
		turns := map[string]eval.Turn{}
		for _, t := range c.Turns {
			turns[t.DiaID] = t
		}
		var qs []int
		for i, q := range c.Questions {
			if q.Category >= 1 && q.Category <= 4 && answers[ci][i] != "" && len(q.Evidence) > 0 {
				qs = append(qs, i)
			}
		}
		for j, i := range qs {
			q := c.Questions[i]
			pkg := evidencePackage(q.Evidence, turns)
			if pkg == nil {
				continue
			}
			out = append(out, groundPair{pkg, answers[ci][i], true})
			o := qs[(j+7)%len(qs)]
			if strings.EqualFold(answers[ci][o], answers[ci][i]) || shares(c.Questions[o].Evidence, q.Evidence) {
				continue
			}
			out = append(out, groundPair{pkg, answers[ci][o], false})
		}
	}
	return out, nil
}

func shares(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// evidencePackage is a package holding the evidence turns whole.
func evidencePackage(ids []string, turns map[string]eval.Turn) *contextpack.Package {
	pkg := &contextpack.Package{}
	for _, id := range ids {
		t, ok := turns[id]
		if !ok {
			continue
		}
		n := len(pkg.Citations) + 1
		date := t.Date.Format(time.DateOnly)
		pkg.Groups = append(pkg.Groups, contextpack.Group{Date: date, Items: []contextpack.Item{{N: n, ID: id,
			Spans: []contextpack.Span{{ID: id, Start: 0, End: len(t.Text), Text: t.Text}}}}})
		pkg.Citations = append(pkg.Citations, contextpack.Citation{N: n, ID: id, Date: date})
	}
	if len(pkg.Citations) == 0 {
		return nil
	}
	return pkg
}

// locomoAnswers reads each question's answer (a string or a number; ""
// for none), by conversation and question.
func locomoAnswers(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	var raw []struct {
		QA []struct {
			Answer any `json:"answer"`
		} `json:"qa"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, mneme.Invalid("%s: %v", path, err)
	}
	out := make([][]string, len(raw))
	for i, s := range raw {
		for _, q := range s.QA {
			a := ""
			if q.Answer != nil {
				a = strings.TrimSpace(fmt.Sprint(q.Answer))
			}
			out[i] = append(out[i], a)
		}
	}
	return out, nil
}

func printGroundReport(a *app, rep *groundReport) {
	fmt.Fprintf(a.stdout, "ground: %d pairs (%d supported), p50 %.2f ms, p99 %.2f ms per check (last run)\n", rep.Pairs, rep.Positives, rep.P50MS, rep.P99MS)
	for _, r := range rep.Runs {
		name := r.Embedder
		if name == "" {
			name = "words alone"
		}
		fmt.Fprintf(a.stdout, "\n%s: threshold %.2f: precision %.4f, recall %.4f\n  sweep:", name, r.Threshold, r.Precision, r.Recall)
		for _, s := range r.Sweep {
			fmt.Fprintf(a.stdout, " %.2f→P%.3f/R%.3f", s.Threshold, s.Precision, s.Recall)
		}
		fmt.Fprintln(a.stdout)
	}
}
