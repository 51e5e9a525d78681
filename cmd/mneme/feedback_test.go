package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRecallFeedback: a short hybrid query over long texts searches again
// with its best hits' words, says so in JSON and text, and --no-feedback
// (no_feedback in a request) searches once.
func TestRecallFeedback(t *testing.T) {
	home := t.TempDir()
	text := func(head, tag string) string {
		words := []string{head}
		for i := range 70 {
			words = append(words, "cholesterol", fmt.Sprintf("%s%d", tag, i))
		}
		return strings.Join(words, " ")
	}
	ok(t, home, "remember", text("statins", "a"))
	ok(t, home, "remember", text("diet", "b"))
	type fbJSON struct {
		Hits     []struct{ Explain map[string]any }
		Feedback []string `json:"feedback"`
	}
	r := decode[fbJSON](t, ok(t, home, "recall", "statins", "--json", "--explain"))
	if !slices.Contains(r.Feedback, "cholesterol") || len(r.Hits) != 2 || r.Hits[1].Explain["feedback_terms"] == nil {
		t.Fatalf("feedback: %+v", r)
	}
	if out := ok(t, home, "recall", "statins", "--explain"); !strings.Contains(out, "feedback words cholesterol") ||
		!strings.Contains(out, "(searched again with the best hits' words cholesterol") {
		t.Fatalf("text explain does not show the feedback:\n%s", out)
	}
	if out := ok(t, home, "recall", "statins"); strings.Contains(out, "searched again") {
		t.Fatalf("the feedback line shows without --explain:\n%s", out)
	}
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"query":"statins","no_feedback":true}`), 0o600)
	for _, args := range [][]string{{"recall", "statins", "--no-feedback", "--json"}, {"recall", "--request", req, "--json"}} {
		if r := decode[fbJSON](t, ok(t, home, args...)); r.Feedback != nil {
			t.Fatalf("%v: feedback %v", args, r.Feedback)
		}
	}
}
