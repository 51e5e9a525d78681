package main_test

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/quality"
)

// TestReportContentFree asks for the quality report of a recall, a
// context package and a groundedness check on the CLI, `mneme serve` and
// `mneme mcp`, with distinctive texts, paths, projects, query and answer:
// no piece of them (no substring of 8 bytes or more) is in any report,
// and the report's numbers agree with the result it describes.
func TestReportContentFree(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "hash")
	const (
		project = "quokkaventures"
		query   = "when was the zephyrine marmalade shipment unloaded"
		answer  = "The zephyrine marmalade shipment was unloaded at Kwinana wharf on Thursday. Nobody saw the wombat."
	)
	records := []args{
		{"text": "Quokka logistics: the zephyrine marmalade shipment was unloaded at Kwinana wharf on Thursday morning.", "project": project,
			"source": "/home/yolanda/quokkaventures/wharf-journal-zephyrine.md"},
		{"text": "Marmalade jars from the zephyrine orchard were wrapped in kelp paper and stacked by Wilhelmina.", "project": project,
			"source": "/home/yolanda/quokkaventures/kelp-wrapping-notes.md"},
		{"text": "Wilhelmina prefers rhubarb chutney over marmalade at the Kwinana wharf picnic.", "project": project},
		{"text": "An unrelated jotting about xylophone tuning for the orchestra.", "project": "xylophonics"},
	}
	secrets := []string{project, "xylophonics", query, answer}
	for _, r := range records {
		secrets = append(secrets, r["text"].(string))
		if src, ok := r["source"].(string); ok {
			secrets = append(secrets, src)
		}
	}
	surfaces := map[string]surface{"cli": &cliSurface{home: t.TempDir()}, "http": &httpSurface{serve(t, t.TempDir())}, "mcp": newMCPSurface(t)}
	for name, s := range surfaces {
		t.Run(name, func(t *testing.T) {
			for _, r := range records {
				if _, code := s.do(t, "remember", r); code != "" {
					t.Fatalf("remember: %s", code)
				}
			}
			for _, c := range []struct {
				op string
				in args
			}{
				{"recall", args{"query": query, "project": project, "k": 3, "report": true}},
				{"recall", args{"query": query, "k": 5, "expand": 1, "explain": true, "report": true}},
				{"context", args{"query": query, "project": project, "budget": 120, "report": true}},
				{"context", args{"query": "zzzqqq", "report": true}}, // nothing matches
				{"ground", nil},
			} {
				in := c.in
				if c.op == "ground" { // against the package of the query
					pkg, code := s.do(t, "context", args{"query": query, "project": project})
					if code != "" {
						t.Fatalf("context: %s", code)
					}
					in = args{"package": pkg, "answer": answer, "report": true}
				}
				out, code := s.do(t, c.op, in)
				if code != "" {
					t.Fatalf("%s %v: %s %v", c.op, in, code, out)
				}
				res := out.(map[string]any)
				raw, ok := res["report"].(map[string]any)
				if !ok {
					t.Fatalf("%s: no report in %v", c.op, res)
				}
				b, _ := json.Marshal(raw)
				for _, sec := range secrets {
					if piece := leaked(string(b), sec, 8); piece != "" {
						t.Errorf("%s report holds %q (of %q): %s", c.op, piece, sec, b)
					}
				}
				var rep quality.Report
				if err := json.Unmarshal(b, &rep); err != nil {
					t.Fatal(err)
				}
				checkReport(t, c.op, query, &rep, res)
			}
			// without report: no report
			out, _ := s.do(t, "recall", args{"query": query})
			if _, ok := out.(map[string]any)["report"]; ok {
				t.Error("a report that was not asked for")
			}
		})
	}
}

// leaked returns a substring of secret of n bytes or more that s holds
// (secret itself when shorter), or "".
func leaked(s, secret string, n int) string {
	if len(secret) < n {
		if strings.Contains(s, secret) {
			return secret
		}
		return ""
	}
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(s, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return ""
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkReport checks that rep agrees with res, the result it came with.
func checkReport(t *testing.T, op, query string, rep *quality.Report, res map[string]any) {
	t.Helper()
	kind := op
	if rep.Kind != kind || !hex64.MatchString(rep.ScopeSHA256) || rep.Reasons == nil || len(rep.Stages) == 0 {
		t.Errorf("%s: report %+v", op, rep)
	}
	sum := 0.0
	for _, st := range rep.Stages {
		sum += st.MS
	}
	if sum > rep.TookMS+0.05 || rep.TookMS != res["took_ms"].(float64) {
		t.Errorf("%s: stages sum to %.3f ms, took %.3f ms, the result says %v", op, sum, rep.TookMS, res["took_ms"])
	}
	if deg, _ := res["degraded"].(bool); rep.Degraded != deg {
		t.Errorf("%s: degraded %v, the result says %v", op, rep.Degraded, deg)
	}
	lanesAddUp := func(what string, l *quality.Lanes) {
		if l == nil || l.Lexical+l.Vector+l.Both+l.Expanded != l.Total {
			t.Errorf("%s: %s %+v", op, what, l)
		}
	}
	switch op {
	case "recall":
		if rep.QuerySHA256 != quality.Hash(query) {
			t.Errorf("query hash %s", rep.QuerySHA256)
		}
		hits := res["hits"].([]any)
		lanesAddUp("candidates", rep.Candidates)
		lanesAddUp("hits", rep.Hits)
		if rep.Hits.Total != len(hits) || rep.Candidates.Total < rep.Hits.Total-rep.Hits.Expanded {
			t.Errorf("recall: %d hits, report %+v of %+v candidates", len(hits), rep.Hits, rep.Candidates)
		}
		var scores []float64
		for _, h := range hits {
			if x, _ := h.(map[string]any)["explain"].(map[string]any); x != nil && x["retrieval"] == "expand" {
				continue
			}
			scores = append(scores, h.(map[string]any)["score"].(float64))
		}
		f := rep.Scores.Final
		if len(scores) == 0 || f == nil || f.N != len(scores) || f.Max != slices.Max(scores) || f.Min != slices.Min(scores) ||
			rep.Scores.Fused.N != len(scores) || rep.Scores.Lexical.N != rep.Hits.Lexical+rep.Hits.Both ||
			rep.Scores.Vector.N != rep.Hits.Vector+rep.Hits.Both {
			t.Errorf("recall: scores %+v, hits %v", rep.Scores, scores)
		}
	case "context":
		cites, dropped := res["citations"].([]any), res["dropped"].([]any)
		c := rep.Context
		if c == nil || c.Kept != len(cites) || c.DroppedBudget+c.DroppedRedundancy+c.DroppedLowScore != len(dropped) ||
			float64(c.Candidates) != res["candidates"].(float64) || float64(c.TokensUsed) != res["tokens_used"].(float64) ||
			float64(c.Budget) != res["budget"].(float64) || rep.CompressionRatio == nil || *rep.CompressionRatio != res["compression_ratio"].(float64) {
			t.Errorf("context: report %+v / %+v, package %v", c, rep.CompressionRatio, res)
		}
		if (len(cites) == 0) != slices.Contains(rep.Reasons, quality.EmptyPackage) || (c.DroppedBudget > 0) != slices.Contains(rep.Reasons, quality.DroppedForBudget) {
			t.Errorf("context: reasons %v", rep.Reasons)
		}
		if c.Candidates > 0 {
			lanesAddUp("candidates", rep.Candidates)
			if rep.Hits.Total != c.Candidates {
				t.Errorf("context: %d candidates, report hits %+v", c.Candidates, rep.Hits)
			}
		}
	case "ground":
		sents := res["sentences"].([]any)
		supported := 0
		for _, s := range sents {
			if s.(map[string]any)["supported"] == true {
				supported++
			}
		}
		g := rep.Ground
		if g == nil || g.Sentences != len(sents) || g.Supported != supported || rep.Groundedness == nil ||
			math.Abs(*rep.Groundedness-res["score"].(float64)) > 1e-9 || g.SpansEmbedded > g.Spans || rep.Scores.Final.N != len(sents) {
			t.Errorf("ground: report %+v %+v, result %v", g, rep.Scores, res)
		}
		for _, r := range res["reasons"].([]any) {
			if !slices.Contains(rep.Reasons, r.(string)) {
				t.Errorf("ground: reason %v not in the report's %v", r, rep.Reasons)
			}
		}
	}
}
