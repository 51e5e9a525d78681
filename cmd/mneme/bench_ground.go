package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
	"github.com/mneme-ai/mneme/internal/eval"
)

// groundReport is what `bench ground` measured on cases built from
// LoCoMo dev: each question's gold answer against its evidence turns
// (supported), and the same answer perturbed (a number, date or name
// changed to another of the conversation's, "not" added, a name swapped
// for another the evidence holds) or another question's answer (not
// supported). Per run (words alone, and with the embedder): ROC AUC of
// the score over the gold and perturbed answers and per kind (another
// question's answer is a kind of its own, outside the overall AUC), precision and recall of
// "supported" at the default threshold, the share of perturbed answers
// flagged with a reason code, and AUC on the first three conversations
// and on the last two apart (thresholds are set on the first three).
type groundReport struct {
	Cases     int            `json:"cases"`
	Positives int            `json:"positives"`
	Kinds     map[string]int `json:"kinds"` // negatives by kind
	Runs      []groundRun    `json:"runs"`
	P50MS     float64        `json:"p50_ms"`
	P99MS     float64        `json:"p99_ms"`
}

type groundRun struct {
	Embedder string `json:"embedder"` // "" for words alone
	groundStat
	AUC     float64               `json:"auc"`
	AUCTune float64               `json:"auc_conversations_1_3"`
	AUCHeld float64               `json:"auc_conversations_4_5"`
	PerKind map[string]groundKind `json:"per_kind"`
	Copied  float64               `json:"copied_sentence_min_score"` // the lowest score of an evidence sentence asked back
	Sweep   []groundStat          `json:"sweep"`
}

type groundKind struct {
	Negatives int     `json:"negatives"`
	AUC       float64 `json:"auc"`
	groundStat
	Flagged float64 `json:"flagged"` // share of its negatives with a mismatch reason code
}

type groundStat struct {
	Threshold float64 `json:"threshold"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

type groundPair struct {
	pkg    *contextpack.Package
	answer string
	kind   string // "gold" (supported), a perturbation, or "other_answer"
	conv   int
}

func (p groundPair) positive() bool { return p.kind == "gold" }

// mismatchReasons are the reason codes that say what a perturbation did.
var mismatchReasons = []string{ground.NumberMismatch, ground.DateMismatch, ground.EntityMismatch, ground.Negation,
	ground.NumberNotInEvidence, ground.EntityNotInEvidence}

func benchGround(a *app, eng *mneme.Engine, path string) (*groundReport, error) {
	pairs, copied, err := groundPairs(path)
	if err != nil {
		return nil, err
	}
	rep := &groundReport{Cases: len(pairs), Kinds: map[string]int{}}
	for _, p := range pairs {
		if p.positive() {
			rep.Positives++
		} else {
			rep.Kinds[p.kind]++
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
		flagged := make([]bool, len(pairs))
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
			scores[i] = res.Score
			flagged[i] = slices.ContainsFunc(res.Reasons, func(c string) bool { return slices.Contains(mismatchReasons, c) })
			if r.em != nil {
				req.Exhaustive = true // every sentence scored with the model: exact scores for AUC and the sweep
				full, err := ground.Check(a.ctx, r.em, r.id, req)
				if err != nil {
					return nil, err
				}
				if full.Supported != res.Supported {
					return nil, fmt.Errorf("case %d: the verdict of words alone (%v) is not the model's (%v)", i, res.Supported, full.Supported)
				}
				scores[i] = full.Score
			}
		}
		gr := groundRun{Embedder: r.id, groundStat: stat(pairs, scores, threshold, nil), PerKind: map[string]groundKind{}, Copied: 1}
		perturbed := func(p groundPair) bool { return p.kind != "other_answer" }
		gr.AUC = auc(pairs, scores, perturbed)
		gr.AUCTune = auc(pairs, scores, func(p groundPair) bool { return perturbed(p) && p.conv < 3 })
		gr.AUCHeld = auc(pairs, scores, func(p groundPair) bool { return perturbed(p) && p.conv >= 3 })
		for kind, n := range rep.Kinds {
			in := func(p groundPair) bool { return p.positive() || p.kind == kind }
			k := groundKind{Negatives: n, AUC: auc(pairs, scores, in), groundStat: stat(pairs, scores, threshold, in)}
			for i, p := range pairs {
				if p.kind == kind && flagged[i] {
					k.Flagged++
				}
			}
			k.Flagged = round4(k.Flagged / float64(n))
			gr.PerKind[kind] = k
		}
		for _, c := range copied {
			res, err := ground.Check(a.ctx, r.em, r.id, ground.Request{Package: c.pkg, Answer: c.answer, Exhaustive: true})
			if err != nil {
				return nil, err
			}
			gr.Copied = min(gr.Copied, res.Score)
		}
		for t := 0.2; t < 0.91; t += 0.05 {
			gr.Sweep = append(gr.Sweep, stat(pairs, scores, float64(int(t*100+0.5))/100, nil))
		}
		rep.Runs = append(rep.Runs, gr)
		rep.P50MS, rep.P99MS = eval.Percentiles(lat)
	}
	return rep, nil
}

// auc is the ROC AUC of the scores of the pairs in (all if nil): gold
// answers against the rest.
func auc(pairs []groundPair, scores []float64, in func(groundPair) bool) float64 {
	var pos, neg []float64
	for i, p := range pairs {
		switch {
		case !in(p):
		case p.positive():
			pos = append(pos, scores[i])
		default:
			neg = append(neg, scores[i])
		}
	}
	return round4(eval.AUC(pos, neg))
}

func round4(x float64) float64 { return float64(int(x*10000+0.5)) / 10000 }

// stat is precision and recall of "supported" at threshold over the
// pairs in (all if nil).
func stat(pairs []groundPair, scores []float64, threshold float64, in func(groundPair) bool) groundStat {
	tp, fp, fn := 0, 0, 0
	for i, p := range pairs {
		if in != nil && !in(p) {
			continue
		}
		yes := scores[i] >= threshold
		switch {
		case yes && p.positive():
			tp++
		case yes:
			fp++
		case p.positive():
			fn++
		}
	}
	s := groundStat{Threshold: threshold}
	if tp+fp > 0 {
		s.Precision = round4(float64(tp) / float64(tp+fp))
	}
	if tp+fn > 0 {
		s.Recall = round4(float64(tp) / float64(tp+fn))
	}
	return s
}

// groundPairs builds the cases: for each question of categories 1-4 with
// an answer and evidence, its evidence package with its own answer
// (supported), with that answer perturbed in each way that applies, and
// with the answer of the question 7 places on in the same conversation
// unless the two share evidence or text (not supported). It also returns,
// for each package, its first evidence sentence asked back word for word.
func groundPairs(path string) (pairs, copied []groundPair, err error) {
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		return nil, nil, mneme.Invalid("%v", err)
	}
	answers, err := locomoAnswers(path)
	if err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewPCG(28, 5))
	for ci, c := range convs {
		values := eval.ConversationValues(c)
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
			gold := answers[ci][i]
			pairs = append(pairs, groundPair{pkg, gold, "gold", ci})
			if first := contextpack.Sentences(pkg.Groups[0].Items[0].Spans[0].Text); len(first) > 0 {
				text := pkg.Groups[0].Items[0].Spans[0].Text
				copied = append(copied, groundPair{pkg, text[first[0].Start:first[0].End], "copied", ci})
			}
			evidence := packageText(pkg)
			for _, kind := range eval.PerturbKinds {
				if changed, ok := eval.Perturb(kind, gold, evidence, values, rng.IntN); ok && changed != gold {
					pairs = append(pairs, groundPair{pkg, changed, kind, ci})
				}
			}
			o := qs[(j+7)%len(qs)]
			if strings.EqualFold(answers[ci][o], gold) || shares(c.Questions[o].Evidence, q.Evidence) {
				continue
			}
			pairs = append(pairs, groundPair{pkg, answers[ci][o], "other_answer", ci})
		}
	}
	return pairs, copied, nil
}

// packageText is the text of a package's spans and the words of their
// dates, as the check reads them.
func packageText(p *contextpack.Package) string {
	var b strings.Builder
	for _, g := range p.Groups {
		for _, it := range g.Items {
			for _, s := range it.Spans {
				b.WriteString(s.Text + "\n")
			}
		}
	}
	for _, c := range p.Citations {
		if t, err := time.Parse(time.DateOnly, c.Date); err == nil {
			b.WriteString(t.Format("2006 January 2 Monday\n"))
		}
	}
	return b.String()
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
	fmt.Fprintf(a.stdout, "ground: %d cases (%d gold answers, supported), p50 %.2f ms, p99 %.2f ms per check (last run)\n", rep.Cases, rep.Positives, rep.P50MS, rep.P99MS)
	kinds := slices.Sorted(maps.Keys(rep.Kinds))
	for _, r := range rep.Runs {
		name := r.Embedder
		if name == "" {
			name = "words alone"
		}
		fmt.Fprintf(a.stdout, "\n%s: AUC %.4f (conversations 1-3 %.4f, 4-5 %.4f); threshold %.2f: precision %.4f, recall %.4f; a copied sentence scores at least %.2f\n",
			name, r.AUC, r.AUCTune, r.AUCHeld, r.Threshold, r.Precision, r.Recall, r.Copied)
		for _, k := range kinds {
			s := r.PerKind[k]
			fmt.Fprintf(a.stdout, "  %-13s %4d: AUC %.4f, precision %.4f, recall %.4f, flagged %.4f\n", k, s.Negatives, s.AUC, s.Precision, s.Recall, s.Flagged)
		}
		fmt.Fprint(a.stdout, "  sweep:")
		for _, s := range r.Sweep {
			fmt.Fprintf(a.stdout, " %.2f→P%.3f/R%.3f", s.Threshold, s.Precision, s.Recall)
		}
		fmt.Fprintln(a.stdout)
	}
}
