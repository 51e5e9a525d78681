package eval

import (
	"math"
	"reflect"
	"testing"
	"time"
)

func TestRecallAt(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	cases := []struct {
		ev   []string
		k    int
		want float64
	}{{[]string{"b"}, 1, 0}, {[]string{"b"}, 2, 1}, {[]string{"a", "d"}, 3, 0.5}, {nil, 1, 1}, {[]string{"z"}, 10, 0}}
	for _, c := range cases {
		if r := RecallAt(got, c.ev, c.k); r != c.want {
			t.Errorf("RecallAt(%v, %d) = %v, want %v", c.ev, c.k, r, c.want)
		}
	}
}

func TestNDCG(t *testing.T) {
	grades := map[string]int{"x": 2, "y": 1, "z": 1}
	// Ideal: 2, 1, 1 -> 2 + 1/log2(3) + 1/log2(4)
	idcg := 2 + 1/math.Log2(3) + 0.5
	dcg := 1 + 2/math.Log2(3) // y at rank 1, x at rank 2, then unjudged
	if got := NDCGAt([]string{"y", "x", "q"}, grades, 10); math.Abs(got-dcg/idcg) > 1e-12 {
		t.Fatalf("ndcg = %v, want %v", got, dcg/idcg)
	}
	if got := NDCGAt([]string{"x", "y", "z"}, grades, 10); math.Abs(got-1) > 1e-12 {
		t.Fatalf("ideal ndcg = %v", got)
	}
	if got := RecallRelevantAt([]string{"x", "q"}, grades, 100); math.Abs(got-1.0/3) > 1e-12 {
		t.Fatalf("recall = %v", got)
	}
}

func TestLoCoMoParsing(t *testing.T) {
	d, err := ParseLoCoMoDate("1:56 pm on 8 May, 2023")
	if err != nil || !d.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Fatalf("date = %v, %v", d, err)
	}
	got := NormalizeEvidence([]string{"D8:6; D9:17", "D30:05", "D1:2 D1:3"})
	if want := []string{"D8:6", "D9:17", "D30:5", "D1:2", "D1:3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("evidence = %v", got)
	}
}

func TestKeptAndLead(t *testing.T) {
	turn := Turn{Speaker: "Ann", Text: "Ann: We moved the staging database to Postgres."}
	for _, c := range []struct {
		summary   string
		half, all bool
	}{
		{"Bob: we moved staging to Postgres; the database too", true, true},
		{"staging database", true, false}, // 2 of moved, staging, database, postgres
		{"Ann moved", false, false},       // the speaker's name does not count
	} {
		if h, a := Kept(turn, WordSet(c.summary)); h != c.half || a != c.all {
			t.Errorf("Kept in %q = %v, %v; want %v, %v", c.summary, h, a, c.half, c.all)
		}
	}
	if got := Lead([]Turn{{Text: "Ann: one two"}, {Text: "Bob: three four"}}, 4); got != "Ann: one two Bob:" {
		t.Errorf("Lead = %q", got)
	}
}

func TestAUC(t *testing.T) {
	for _, c := range []struct {
		pos, neg []float64
		want     float64
	}{
		{[]float64{0.9, 0.8}, []float64{0.1, 0.2}, 1},
		{[]float64{0.1}, []float64{0.9}, 0},
		{[]float64{0.5}, []float64{0.5}, 0.5},
		{[]float64{0.9, 0.3}, []float64{0.5, 0.1}, 0.75},
	} {
		if got := AUC(c.pos, c.neg); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AUC(%v, %v) = %g, want %g", c.pos, c.neg, got, c.want)
		}
	}
	if !math.IsNaN(AUC(nil, []float64{1})) {
		t.Error("AUC of no positives is not NaN")
	}
}

func TestDocumentQueries(t *testing.T) {
	b := &BEIR{
		Docs:    []Doc{{ID: "d1", Title: "T1", Text: "one"}, {ID: "d2", Text: "two"}, {ID: "d3", Text: "three"}},
		Queries: map[string]string{"q1": "short", "q2": "alone"},
		Qrels:   map[string]map[string]int{"q1": {"d3": 2, "d2": 2, "d1": 1}, "q2": {"d1": 2}},
	}
	self := b.DocumentQueries()
	if !reflect.DeepEqual(self, map[string]string{"q1": "d2"}) || b.Queries["q1"] != "two" ||
		!reflect.DeepEqual(b.Qrels["q1"], map[string]int{"d3": 2, "d1": 1}) || b.Qrels["q2"] != nil || b.Queries["q2"] != "" {
		t.Fatalf("self %v, queries %v, qrels %v", self, b.Queries, b.Qrels)
	}
}
