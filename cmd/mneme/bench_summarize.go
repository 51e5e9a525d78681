package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/internal/eval"
)

// summaryReport is what `bench locomo --summaries` measured: each session
// summarized extractively, how much of the questions' evidence the
// summaries keep, and recall with the summaries indexed beside the turns.
type summaryReport struct {
	Sessions   int     `json:"sessions"`
	MaxWords   int     `json:"max_words"`
	Seconds    float64 `json:"seconds"`     // summarizing every session, the summaries' embedding included
	MeanWords  float64 `json:"mean_words"`  // words per summary
	Evidence   int     `json:"evidence"`    // evidence turns of category 1-4 questions (with repeats)
	Covered    float64 `json:"covered"`     // share whose content words are at least half in their session's summary
	CoveredAll float64 `json:"covered_all"` // share whose content words all are
	Quoted     float64 `json:"quoted"`      // share the summary quotes
	// The same two coverage shares for the first max_words words of each
	// session (the lead baseline).
	LeadCovered    float64 `json:"lead_covered"`
	LeadCoveredAll float64 `json:"lead_covered_all"`
	// Recall with the summaries indexed: strict, a summary hit takes a
	// slot and stands for no turn; credited, it stands for the turns it
	// quotes.
	Strict   []modeReport `json:"strict"`
	Credited []modeReport `json:"credited"`
}

// benchSummaries summarizes every session of convs, measures evidence
// coverage, then recall in each mode with the summaries indexed.
func benchSummaries(a *app, eng *mneme.Engine, convs []eval.Conversation, owner map[string][]string, modes []benchMode, maxWords int) (*summaryReport, error) {
	rep := &summaryReport{MaxWords: maxWords}
	credited := map[string][]string{}
	for id, dias := range owner {
		credited[id] = dias
	}
	idDia := map[string]string{}
	for id, dias := range owner {
		for _, d := range dias {
			idDia[id] = d
		}
	}
	words, leadWords := map[string]map[string]bool{}, map[string]map[string]bool{} // by conv/session
	quoted := map[string]bool{}                                                    // conv/dia_id
	t0 := time.Now()
	for _, c := range convs {
		for _, s := range eval.Sessions(c) {
			at := s[0].Date.UTC().Format(time.RFC3339)
			res, err := consolidate.Summarize(a.ctx, eng, consolidate.Request{Project: c.ID, Since: at, Until: at,
				MaxWords: consolidate.MaxWords(maxWords), Limit: consolidate.MaxLimit})
			if err != nil {
				return nil, err
			}
			key := fmt.Sprintf("%s/%d", c.ID, s[0].Session)
			words[key], leadWords[key] = eval.WordSet(res.Summary), eval.WordSet(eval.Lead(s, maxWords))
			rep.Sessions++
			rep.MeanWords += float64(res.Words)
			for _, id := range res.CitedIDs {
				credited[res.RecordID] = append(credited[res.RecordID], idDia[id])
				quoted[c.ID+"/"+idDia[id]] = true
			}
		}
	}
	rep.Seconds = time.Since(t0).Seconds()
	rep.MeanWords /= float64(max(rep.Sessions, 1))
	coverage(rep, convs, words, leadWords, quoted)
	for _, m := range modes {
		r, err := locomoOwners(a, eng, m, convs, owner, credited)
		if err != nil {
			return nil, err
		}
		rep.Strict, rep.Credited = append(rep.Strict, r[0]), append(rep.Credited, r[1])
	}
	return rep, nil
}

// dropSummaries forgets the summaries an earlier --summaries run left in a
// reused data directory: recall without them is measured first, and each
// run writes its own.
func dropSummaries(a *app, eng *mneme.Engine) error {
	_, err := eng.Forget(a.ctx, mneme.ForgetRequest{ForgetFilter: mneme.ForgetFilter{Types: []mneme.Type{mneme.Semantic}, Kinds: []string{"summary"}}})
	return err
}

// locomoOwners is locomoMode scoring the same hits under several owner
// maps (what each record stands for).
func locomoOwners(a *app, eng *mneme.Engine, m benchMode, convs []eval.Conversation, owners ...map[string][]string) ([]modeReport, error) {
	sums := make([]map[string]map[string]float64, len(owners))
	var lat []time.Duration
	for _, c := range convs {
		for _, q := range c.Questions {
			ids, took, err := recallIDs(a, eng, m, q.Text, c.ID, 25)
			if err != nil {
				return nil, err
			}
			lat = append(lat, took)
			groups := []string{fmt.Sprint(q.Category)}
			if q.Category >= 1 && q.Category <= 4 {
				groups = append(groups, "overall_1_4")
			}
			for i, owner := range owners {
				if sums[i] == nil {
					sums[i] = map[string]map[string]float64{}
				}
				for _, g := range groups {
					if sums[i][g] == nil {
						sums[i][g] = map[string]float64{}
					}
					sums[i][g]["n"]++
					for _, k := range []int{1, 5, 10, 25} {
						sums[i][g][fmt.Sprintf("r@%d", k)] += eval.RecallAt(expand(ids[:min(k, len(ids))], owner), q.Evidence, len(ids)+1000)
					}
				}
			}
		}
	}
	out := make([]modeReport, len(owners))
	for i := range owners {
		out[i] = finish(m.name, sums[i], lat)
	}
	return out, nil
}

// coverage: for each evidence turn of a category 1-4 question, whether
// its session's summary keeps at least half, and all, of its content words.
func coverage(rep *summaryReport, convs []eval.Conversation, words, leadWords map[string]map[string]bool, quoted map[string]bool) {
	var half, all, leadHalf, leadAll, q int
	count := func(h, a bool, half, all *int) {
		if h {
			*half++
		}
		if a {
			*all++
		}
	}
	for _, c := range convs {
		for _, t := range eval.EvidenceTurns(c) {
			key := fmt.Sprintf("%s/%d", c.ID, t.Session)
			rep.Evidence++
			h, a := eval.Kept(t, words[key])
			count(h, a, &half, &all)
			h, a = eval.Kept(t, leadWords[key])
			count(h, a, &leadHalf, &leadAll)
			if quoted[c.ID+"/"+t.DiaID] {
				q++
			}
		}
	}
	n := float64(max(rep.Evidence, 1))
	r := func(x int) float64 { return float64(int(float64(x)/n*10000+0.5)) / 10000 }
	rep.Covered, rep.CoveredAll, rep.Quoted, rep.LeadCovered, rep.LeadCoveredAll = r(half), r(all), r(q), r(leadHalf), r(leadAll)
}

func printSummaryReport(a *app, rep *summaryReport) {
	fmt.Fprintf(a.stdout, "\nsummaries: %d sessions at %d words (mean %.0f) in %.1f s\n", rep.Sessions, rep.MaxWords, rep.MeanWords, rep.Seconds)
	fmt.Fprintf(a.stdout, "  evidence turns (cat 1-4): %d; content words >= half in summary %.4f (lead %.4f), all %.4f (lead %.4f), quoted %.4f\n",
		rep.Evidence, rep.Covered, rep.LeadCovered, rep.CoveredAll, rep.LeadCoveredAll, rep.Quoted)
	for i, m := range rep.Strict {
		g, c := m.Groups["overall_1_4"], rep.Credited[i].Groups["overall_1_4"]
		fmt.Fprintf(a.stdout, "  with summaries indexed, mode %s overall_1_4: strict r@10 %g r@25 %g; credited r@10 %g r@25 %g\n",
			m.Mode, g["r@10"], g["r@25"], c["r@10"], c["r@25"])
	}
}
