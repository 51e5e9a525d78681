package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/textnorm"
)

// TestCandidatesReadLinked: PostgreSQL reads the records the candidates
// link to with the candidates (the contract's LinkedCandidates allows a
// store not to), so --expand and hiding links cost no round trip more.
func TestCandidatesReadLinked(t *testing.T) {
	ctx := context.Background()
	s := pgtest.Open(t)
	defer s.Close()
	eng := mneme.NewEngine(s)
	put := func(r mneme.Record) mneme.WriteResult {
		res, err := eng.Remember(ctx, []*mneme.Record{&r}, mneme.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	src := put(mneme.Record{Text: "the source notes", Project: "other", Sensitivity: mneme.Secret})
	peer := put(mneme.Record{Text: "a peer decision"})
	put(mneme.Record{Text: "release calendar summary", Links: []mneme.Link{
		{Type: mneme.LinkDerivedFrom, Target: src.ID}, {Type: mneme.LinkRelatesTo, Target: peer.ID}}})
	put(mneme.Record{Text: "release calendar unlinked"})
	got, err := s.Candidates(ctx, mneme.CandidateQuery{Terms: textnorm.Terms("release calendar"), K: 5,
		Filter: mneme.Filter{Clearance: mneme.Secret, Now: time.Now()}, Linked: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got.Linked {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	want := []string{src.ID, peer.ID}
	slices.Sort(want)
	if len(got.List) != 2 || !slices.Equal(ids, want) {
		t.Fatalf("%d candidates, linked %v; want 2 and %v", len(got.List), ids, want)
	}
}
