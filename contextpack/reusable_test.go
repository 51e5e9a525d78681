package contextpack_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// TestReusableLane: reusable N adds up to N validated or published
// memories in a block of their own, first, marked as such, within their
// share of the budget, without taking them twice; the package stays within
// its budget.
func TestReusableLane(t *testing.T) {
	var recs []*mneme.Record
	for i := range 30 {
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("Turn %d: the release train left late again because of the migration %d.", i, i), SessionID: "s1", OccurredAt: at(i)})
	}
	recs = append(recs,
		&mneme.Record{Text: "Releases leave on Thursdays once the release checklist passes.", Status: mneme.Published},
		&mneme.Record{Text: "A release train waits for the migration to finish.", Status: mneme.Validated},
		&mneme.Record{Text: "A draft about the release train that nobody checked.", Status: mneme.Draft})
	eng := engine(t, recs...)
	query := mneme.RecallRequest{Query: "when does the release train leave"}
	plain := build(t, eng, contextpack.Request{RecallRequest: query, Budget: 200})
	for _, g := range plain.Groups {
		if g.Lane != "" {
			t.Fatalf("a package without reusable has a %s block", g.Lane)
		}
	}
	pkg := build(t, eng, contextpack.Request{RecallRequest: query, Budget: 200, Reusable: 2})
	if pkg.TokensUsed > pkg.Budget || pkg.ReusableBudget != 50 {
		t.Fatalf("tokens %d of %d, reusable budget %d", pkg.TokensUsed, pkg.Budget, pkg.ReusableBudget)
	}
	if len(pkg.Groups) < 2 || pkg.Groups[0].Lane != contextpack.LaneReusable || pkg.Groups[0].Header != "## reusable: validated and published memories" {
		t.Fatalf("groups %+v: want the reusable block first", pkg.Groups)
	}
	block, seen := pkg.Groups[0], map[string]int{}
	blockTokens := contextpack.Tokens(block.Header) + 1
	for _, it := range block.Items {
		blockTokens += it.Tokens
		if it.Lane != contextpack.LaneReusable || (it.Status != mneme.Validated && it.Status != mneme.Published) {
			t.Fatalf("reusable item %+v", it)
		}
	}
	if len(block.Items) == 0 || len(block.Items) > 2 || blockTokens > pkg.ReusableBudget {
		t.Fatalf("reusable block of %d items, %d tokens (share %d)", len(block.Items), blockTokens, pkg.ReusableBudget)
	}
	for _, g := range pkg.Groups {
		for _, it := range g.Items {
			if seen[it.ID]++; seen[it.ID] > 1 {
				t.Fatalf("%s is in the package twice", it.ID)
			}
		}
	}
	if len(pkg.Groups[1].Items) == 0 {
		t.Fatal("the query's own hits were crowded out")
	}
	for _, n := range []int{-1, contextpack.MaxReusable + 1} {
		_, err := contextpack.Build(context.Background(), eng, contextpack.Request{RecallRequest: query, Reusable: n}, mneme.Internal)
		if mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("reusable %d = %v, want EINVALID", n, err)
		}
	}
}

// TestExpandedMarked: a package built with expand marks what expansion
// added with the hit it came from and the relation: a summary brings its
// derived_from sources.
func TestExpandedMarked(t *testing.T) {
	eng := engine(t)
	ctx := context.Background()
	src, _ := eng.Remember(ctx, []*mneme.Record{{Text: "Ben rebooted the replica at noon.", SessionID: "s9"}}, mneme.WriteOptions{})
	sum, _ := eng.Remember(ctx, []*mneme.Record{{Text: "Summary: the outage of the orders database ended after a reboot.", Kind: "summary",
		Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: src.ID}}}}, mneme.WriteOptions{})
	pkg := build(t, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "orders database outage summary", Expand: 1}, Budget: 300})
	var found bool
	for _, g := range pkg.Groups {
		for _, it := range g.Items {
			if it.ID == src.ID {
				found = it.Relation == mneme.LinkDerivedFrom && it.ExpandedFrom == sum.ID
			}
		}
	}
	if !found {
		t.Fatalf("the summary's source is not in the package marked derived_from: %+v", pkg.Groups)
	}
}
