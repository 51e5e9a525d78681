package quality_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/quality"
)

func TestSummarize(t *testing.T) {
	if s := quality.Summarize(nil); s != nil {
		t.Errorf("none: %+v", s)
	}
	if s := quality.Summarize([]float64{0.9, 0.1, 0.5}); *s != (quality.Summary{N: 3, Min: 0.1, Median: 0.5, Max: 0.9}) {
		t.Errorf("odd: %+v", s)
	}
	if s := quality.Summarize([]float64{0.4, 0.2}); s.Median != 0.3 {
		t.Errorf("even: %+v", s)
	}
}

func TestScopeHash(t *testing.T) {
	a, b := quality.ScopeHash([]string{"x", "y"}, true, "internal"), quality.ScopeHash([]string{"y", "x"}, true, "internal")
	if a != b || len(a) != 64 {
		t.Errorf("order matters: %s %s", a, b)
	}
	for _, other := range []string{quality.ScopeHash([]string{"x"}, true, "internal"), quality.ScopeHash([]string{"x", "y"}, false, "internal"),
		quality.ScopeHash([]string{"x", "y"}, true, "secret"), quality.ScopeHash([]string{"x,y"}, true, "internal")} {
		if other == a {
			t.Error("different scopes hash alike")
		}
	}
}

func TestLanesAndLine(t *testing.T) {
	var l quality.Lanes
	l.Count(true, true)
	l.Count(true, false)
	l.Count(false, true)
	l.Count(false, false)
	if l != (quality.Lanes{Total: 4, Both: 1, Lexical: 1, Vector: 1, Expanded: 1}) {
		t.Errorf("%+v", l)
	}
	r := &quality.Report{Kind: quality.KindRecall, Hits: &l, Reasons: []string{}}
	r.AddReason(quality.NoHits)
	r.AddReason(quality.NoHits)
	if line := r.Line(); !strings.HasPrefix(line, "report: recall") || !strings.Contains(line, "expanded 1") || !strings.HasSuffix(line, "reasons no_hits") {
		t.Error(line)
	}
}
