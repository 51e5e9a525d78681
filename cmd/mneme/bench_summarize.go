package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/internal/eval"
	"github.com/mneme-ai/mneme/internal/textnorm"
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
		for _, s := range sessions(c) {
			at := s[0].Date.UTC().Format(time.RFC3339)
			res, err := consolidate.Summarize(a.ctx, eng, consolidate.Request{Project: c.ID, Since: at, Until: at,
				MaxWords: consolidate.MaxWords(maxWords), Limit: consolidate.MaxLimit})
			if err != nil {
				return nil, err
			}
			key := fmt.Sprintf("%s/%d", c.ID, s[0].Session)
			words[key], leadWords[key] = wordSet(res.Summary), wordSet(lead(s, maxWords))
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

// sessions groups a conversation's turns by session, in order.
func sessions(c eval.Conversation) [][]eval.Turn {
	var out [][]eval.Turn
	for i, t := range c.Turns {
		if i == 0 || t.Session != c.Turns[i-1].Session {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], t)
	}
	return out
}

// lead is the baseline summary: the session's first max words.
func lead(turns []eval.Turn, max int) string {
	var out []string
	for _, t := range turns {
		out = append(out, strings.Fields(t.Text)...)
	}
	return strings.Join(out[:min(max, len(out))], " ")
}

// contentWords are the folded words of s that are not stopwords.
func contentWords(s string) []string {
	var out []string
	for _, w := range textnorm.Words(s) {
		if len(w) > 2 && !textnorm.IsStopword(w) {
			out = append(out, w)
		}
	}
	return out
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range textnorm.Words(s) {
		out[w] = true
	}
	return out
}

// coverage: for each evidence turn of a category 1-4 question, the share
// of its content words (the speaker's name aside) in its session's summary.
func coverage(rep *summaryReport, convs []eval.Conversation, words, leadWords map[string]map[string]bool, quoted map[string]bool) {
	var half, all, leadHalf, leadAll, q int
	for _, c := range convs {
		turns := map[string]eval.Turn{}
		for _, t := range c.Turns {
			turns[t.DiaID] = t
		}
		for _, qu := range c.Questions {
			if qu.Category < 1 || qu.Category > 4 {
				continue
			}
			for _, d := range qu.Evidence {
				t, ok := turns[d]
				if !ok {
					continue
				}
				key := fmt.Sprintf("%s/%d", c.ID, t.Session)
				cw := contentWords(strings.TrimPrefix(t.Text, t.Speaker+":"))
				rep.Evidence++
				h, a := share(cw, words[key])
				half, all = half+h, all+a
				h, a = share(cw, leadWords[key])
				leadHalf, leadAll = leadHalf+h, leadAll+a
				if quoted[c.ID+"/"+d] {
					q++
				}
			}
		}
	}
	n := float64(max(rep.Evidence, 1))
	r := func(x int) float64 { return float64(int(float64(x)/n*10000+0.5)) / 10000 }
	rep.Covered, rep.CoveredAll, rep.Quoted, rep.LeadCovered, rep.LeadCoveredAll = r(half), r(all), r(q), r(leadHalf), r(leadAll)
}

// share is 1, 1 when every content word is in set; 1, 0 when at least
// half are.
func share(cw []string, set map[string]bool) (half, all int) {
	in := 0
	for _, w := range cw {
		if set[w] {
			in++
		}
	}
	if 2*in >= len(cw) {
		half = 1
	}
	if in == len(cw) {
		all = 1
	}
	return half, all
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
