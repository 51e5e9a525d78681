package contextpack_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// TestAssembleLed: lead records are fitted first, though they share no
// word with the query, then the recall's hits; a lead record the recall
// also finds is shown once; a small budget keeps the lead and drops hits.
func TestAssembleLed(t *testing.T) {
	facts := []*mneme.Record{
		{Text: "We deploy on Tuesdays after the CAB review"},
		{Text: "Ada prefers small PRs, under 300 lines"},
		{Text: "The release checklist is reviewed before the migration"},
	}
	eng := engine(t, append(facts, turns()...)...)
	ctx := context.Background()
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "migration failed release", Mode: mneme.Lexical}}
	tests := []struct {
		name            string
		budget          int
		lead            []*mneme.Record
		present, absent []string
	}{
		{"no lead: the recall alone", 500, nil, []string{"orders table"}, []string{"Tuesdays", "Ada"}},
		{"lead, then hits", 500, facts, []string{"Tuesdays", "Ada", "checklist is reviewed", "orders table"}, nil},
		{"a small budget keeps the lead", 50, facts[:2], []string{"Tuesdays", "Ada"}, []string{"orders table", "coffee"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req.Budget = contextpack.Budget(tc.budget)
			q, n, err := req.Recall(eng.Now(), mneme.Internal)
			if err != nil {
				t.Fatal(err)
			}
			pkg, err := contextpack.AssembleLed(ctx, eng, q, n, tc.lead)
			if err != nil {
				t.Fatal(err)
			}
			if pkg.TokensUsed > tc.budget || len(pkg.Citations) == 0 {
				t.Fatalf("%d tokens of %d, %d citations:\n%s", pkg.TokensUsed, tc.budget, len(pkg.Citations), pkg.Text)
			}
			for _, want := range tc.present {
				if !strings.Contains(pkg.Text, want) {
					t.Errorf("%q is not in the package:\n%s", want, pkg.Text)
				}
			}
			for _, no := range tc.absent {
				if strings.Contains(pkg.Text, no) {
					t.Errorf("%q is in the package:\n%s", no, pkg.Text)
				}
			}
			if c := strings.Count(pkg.Text, "checklist is reviewed"); c > 1 {
				t.Errorf("a lead record the recall found is shown %d times:\n%s", c, pkg.Text)
			}
		})
	}
}
