package contextpack_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/contextpack"
)

var facts = []*mneme.Record{
	{Text: "We deploy on Tuesdays after the CAB review"},
	{Text: "Ada prefers small PRs, under 300 lines"},
	{Text: "The release checklist is reviewed before the migration"},
	{Text: "Session summary: zebras graze at dawn", Kind: "summary"},
}

// TestAssembleLed: the project's newest facts are fitted first, though
// they share no word with the query, then the recall's hits; a fact the
// recall also finds is shown once; summaries are not led; a small budget
// keeps the lead and drops hits; bad input is refused.
func TestAssembleLed(t *testing.T) {
	eng := engine(t, append(facts, episodes()...)...)
	ctx := context.Background()
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Project: mneme.DefaultProject, Query: "migration failed release", Mode: mneme.Lexical}}
	tests := []struct {
		name            string
		budget, lead    int
		present, absent []string
	}{
		{"no lead: the recall alone", 500, 0, []string{"orders table"}, []string{"Tuesdays", "Ada"}},
		{"lead, then hits", 500, 20, []string{"Tuesdays", "Ada", "checklist is reviewed", "orders table"}, []string{"zebras"}},
		{"a small budget keeps the lead", 50, 20, nil, []string{"orders table", "coffee", "zebras"}},
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
			if pkg.TokensUsed > tc.budget || len(pkg.Citations) < 2 {
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
				t.Errorf("a fact the recall found too is shown %d times:\n%s", c, pkg.Text)
			}
		})
	}

	q, n, _ := req.Recall(eng.Now(), mneme.Internal)
	for _, bad := range []struct {
		lead    int
		project string
	}{{-1, mneme.DefaultProject}, {251, mneme.DefaultProject}, {5, ""}} {
		q.Filter.Project = bad.project
		if _, err := contextpack.AssembleLed(ctx, eng, q, n, bad.lead); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Errorf("lead %d, project %q: %v, want EINVALID", bad.lead, bad.project, err)
		}
	}
}

// TestAssembleLedCached: a led package is cached like any other, under a
// key of its own, and a new fact (a write) is led at once.
func TestAssembleLedCached(t *testing.T) {
	ctx := context.Background()
	base := engine(t, append(facts[:2:2], episodes()...)...)
	eng := mneme.NewEngine(base.Store(), mneme.WithClock(func() time.Time { return now }),
		mneme.WithCache(cache.New(base.Store().(mneme.CacheStore), cache.Policy{}, func() time.Time { return now })))
	req := contextpack.Request{RecallRequest: mneme.RecallRequest{Project: mneme.DefaultProject, Query: "migration failed", Mode: mneme.Lexical}, Budget: 500}
	q, n, err := req.Recall(now, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	led := func(lead int) *contextpack.Package {
		t.Helper()
		pkg, err := contextpack.AssembleLed(ctx, eng, q, n, lead)
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	status := func(p *contextpack.Package) string { return string(p.Cache[mneme.CacheContextPackage]) }
	first := led(20)
	if again := led(20); status(again) != string(mneme.CacheHit) || again.Text != first.Text {
		t.Fatalf("the same led request: %s", status(again))
	}
	if plain := led(0); status(plain) != string(mneme.CacheMiss) || strings.Contains(plain.Text, "Tuesdays") {
		t.Fatalf("the package without lead was served the led one: %s\n%s", status(plain), plain.Text)
	}
	if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "Staging is rebuilt every Sunday"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if after := led(20); !strings.Contains(after.Text, "Staging is rebuilt") {
		t.Fatalf("a new fact is not led:\n%s", after.Text)
	}
}

// episodes are turns() as what they are, events: never led.
func episodes() []*mneme.Record {
	recs := turns()
	for _, r := range recs {
		r.Type = mneme.Episodic
	}
	return recs
}
