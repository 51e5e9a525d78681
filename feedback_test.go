package mneme_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// long returns a text of head, then body repeated, then filler words
// unique to tag: over the 80 words a hit needs to lend its words.
func long(tag, head, body string) string {
	words := []string{head}
	for range 10 {
		words = append(words, body)
	}
	for i := range 60 {
		words = append(words, fmt.Sprintf("%s%d", tag, i))
	}
	return strings.Join(words, " ")
}

func TestRecallFeedback(t *testing.T) {
	statin := long("a", "statins", "cholesterol lipoprotein")
	related := long("b", "diet", "cholesterol lipoprotein")
	unrelated := long("c", "gardening", "tomato seedlings")
	eng := engine(t, mneme.Record{Text: statin}, mneme.Record{Text: related}, mneme.Record{Text: unrelated},
		mneme.Record{Text: "statins again, in a short note"})
	longQuery := "statins one two three four five six seven eight nine ten eleven twelve thirteen"
	for _, tc := range []struct {
		name     string
		q        mneme.Query
		feedback bool
	}{
		{"a short query over long texts adds their words", mneme.Query{Text: "statins"}, true},
		{"no_feedback turns it off", mneme.Query{Text: "statins", NoFeedback: true}, false},
		{"lexical mode searches once", mneme.Query{Text: "statins", Mode: mneme.Lexical}, false},
		{"a long query says enough", mneme.Query{Text: longQuery}, false},
		{"nothing with evidence lends nothing", mneme.Query{Text: "volcano"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := recall(t, eng, tc.q)
			if got := len(res.Feedback) > 0; got != tc.feedback {
				t.Fatalf("feedback %v, want %v", res.Feedback, tc.feedback)
			}
			i := slices.IndexFunc(res.Hits, func(h mneme.Hit) bool { return h.Record.Text == related })
			if !tc.feedback {
				if i >= 0 && len(res.Hits[i].Explain.FeedbackTerms) > 0 {
					t.Fatalf("feedback terms without feedback: %+v", res.Hits[i].Explain)
				}
				return
			}
			if !slices.Contains(res.Feedback, "cholesterol") || slices.Contains(res.Feedback, "statins") {
				t.Fatalf("feedback %v: want the best hit's words, not the query's", res.Feedback)
			}
			if i < 0 {
				t.Fatalf("the text sharing the best hit's words was not found: %q", texts(res))
			}
			x := res.Hits[i].Explain
			if len(x.MatchedTerms) != 0 || !slices.Contains(x.FeedbackTerms, "cholesterol") {
				t.Fatalf("explain: matched %v, feedback %v", x.MatchedTerms, x.FeedbackTerms)
			}
			if slices.ContainsFunc(res.Hits, func(h mneme.Hit) bool { return h.Record.Text == unrelated }) {
				t.Fatalf("an unrelated text came back: %q", texts(res))
			}
		})
	}
}

// TestRecallFeedbackReport: the quality report times feedback as its own
// stage and counts the second search's candidates.
func TestRecallFeedbackReport(t *testing.T) {
	eng := engine(t, mneme.Record{Text: long("a", "statins", "cholesterol lipoprotein")},
		mneme.Record{Text: long("b", "diet", "cholesterol lipoprotein")})
	res := recall(t, eng, mneme.Query{Text: "statins", Report: true})
	var stages []string
	for _, s := range res.Report.Stages {
		stages = append(stages, s.Name)
	}
	if strings.Join(stages, ",") != "embed,search,feedback,rank" || res.Report.Candidates.Lexical+res.Report.Candidates.Both != 2 {
		t.Fatalf("stages %v, candidates %+v", stages, res.Report.Candidates)
	}
}

func TestRecallFeedbackNeedsLongTexts(t *testing.T) {
	eng := engine(t, mneme.Record{Text: "statins lower cholesterol"}, mneme.Record{Text: "diet and cholesterol"})
	if res := recall(t, eng, mneme.Query{Text: "statins"}); res.Feedback != nil {
		t.Fatalf("short texts lent words: %v", res.Feedback)
	}
}
