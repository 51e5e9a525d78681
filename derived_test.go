package mneme_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// TestRaiseDerivedReadsOnlyDerived: RaiseDerived asks the store only for
// the records deriving from the newly secret ids, then from those it
// raised, and raises a chain of summaries but not a relates_to neighbour.
func TestRaiseDerivedReadsOnlyDerived(t *testing.T) {
	src := &mneme.Record{ID: "src", Sensitivity: mneme.Secret}
	sum := &mneme.Record{ID: "sum", Sensitivity: mneme.Internal, Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: "src"}}}
	digest := &mneme.Record{ID: "digest", Sensitivity: mneme.Internal, Links: []mneme.Link{{Type: mneme.LinkDerivedFrom, Target: "sum"}}}
	peer := &mneme.Record{ID: "peer", Sensitivity: mneme.Internal, Links: []mneme.Link{{Type: mneme.LinkRelatesTo, Target: "src"}}}
	byTarget := map[string][]*mneme.Record{"src": {sum, peer}, "sum": {digest}} // peer: a store may return more
	var asked [][]string
	raised, err := mneme.RaiseDerived([]*mneme.Record{src}, mneme.ModeImport, mneme.WriteResult{}, time.Unix(1, 0),
		func(ids []string) ([]*mneme.Record, error) {
			asked = append(asked, slices.Clone(ids))
			var out []*mneme.Record
			for _, id := range ids {
				out = append(out, byTarget[id]...)
			}
			return out, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range raised {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, []string{"sum", "digest"}) || peer.Sensitivity != mneme.Internal {
		t.Fatalf("raised %v (peer %s), want sum and digest", got, peer.Sensitivity)
	}
	if want := [][]string{{"src"}, {"sum"}, {"digest"}}; !slices.EqualFunc(asked, want, slices.Equal) {
		t.Fatalf("asked for the records deriving from %v, want %v", asked, want)
	}
}
