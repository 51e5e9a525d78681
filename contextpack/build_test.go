package contextpack_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// engine opens a fresh home with the hash embedder and stores recs.
func engine(t testing.TB, recs ...*mneme.Record) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, _ := hash.New(64)
	eng := mneme.NewEngine(s, mneme.WithClock(func() time.Time { return now }), mneme.WithEmbedder(em))
	if len(recs) > 0 {
		if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return eng
}

func at(days int) *time.Time { t := now.AddDate(0, 0, -days); return &t }

func turns() []*mneme.Record {
	return []*mneme.Record{
		{Text: "Ana: We moved the release to Thursday because the migration failed. The coffee machine is broken again.", SessionID: "s1", Speaker: "Ana", OccurredAt: at(3)},
		{Text: "Ben: The migration failed on the orders table. I will rerun it tonight with a smaller batch size, which should avoid the lock timeout we saw last week on the replica. Lunch is at noon, and the team offsite moved to the second week of the month.", SessionID: "s1", Speaker: "Ben", OccurredAt: at(3)},
		{Text: "Ana: The release checklist lives in docs/release.md.", SessionID: "s2", Speaker: "Ana", OccurredAt: at(1)},
		{Text: "Cleo: I adopted a cat named Pixel.", SessionID: "s3", Speaker: "Cleo", OccurredAt: at(10)},
	}
}

func build(t testing.TB, eng *mneme.Engine, req contextpack.Request) *contextpack.Package {
	t.Helper()
	pkg, err := contextpack.Build(context.Background(), eng, req, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestCopiedOnly: every span's bytes are the record text at its offsets,
// with the text's sha256, and every line of the package text is a header
// or numbered spans.
func TestCopiedOnly(t *testing.T) {
	eng := engine(t, turns()...)
	pkg := build(t, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "why did the migration fail before the release?"}, Budget: 200})
	if len(pkg.Citations) == 0 {
		t.Fatal("empty package")
	}
	lines := strings.Split(pkg.Text, "\n")
	li := 0
	for _, g := range pkg.Groups {
		if lines[li] != g.Header {
			t.Fatalf("line %d %q, want header %q", li, lines[li], g.Header)
		}
		li++
		for _, it := range g.Items {
			rec, err := eng.Get(context.Background(), it.ID, mneme.Internal)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(rec.Text))
			var parts []string
			for _, s := range it.Spans {
				if rec.Text[s.Start:s.End] != s.Text || s.SHA256 != hex.EncodeToString(sum[:]) || s.ID != it.ID {
					t.Fatalf("span %+v is not the record's text %q", s, rec.Text)
				}
				parts = append(parts, s.Text)
			}
			if want := "[" + itoa(it.N) + "] " + strings.Join(parts, " … "); lines[li] != want {
				t.Fatalf("line %q, want %q", lines[li], want)
			}
			li++
		}
	}
	if li != len(lines) {
		t.Fatalf("%d lines, %d accounted for", len(lines), li)
	}
	if pkg.TokensUsed > pkg.Budget || pkg.TokensUsed != contextpack.Tokens(pkg.Text) {
		t.Fatalf("tokens %d of %d", pkg.TokensUsed, pkg.Budget)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCompressAndGroup: a long turn keeps only its sentences with a query
// term; groups are sessions in time order; citations map to ids.
func TestCompressAndGroup(t *testing.T) {
	eng := engine(t, turns()...)
	pkg := build(t, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "migration batch size lock timeout"}, Budget: 500})
	if strings.Contains(pkg.Text, "Lunch is at noon") {
		t.Errorf("an irrelevant sentence of a long turn was kept:\n%s", pkg.Text)
	}
	if !strings.Contains(pkg.Text, "smaller batch size") {
		t.Errorf("the relevant sentence is missing:\n%s", pkg.Text)
	}
	for i := 1; i < len(pkg.Groups); i++ {
		if pkg.Groups[i-1].Date > pkg.Groups[i].Date {
			t.Errorf("groups out of time order: %q then %q", pkg.Groups[i-1].Header, pkg.Groups[i].Header)
		}
	}
	for i, c := range pkg.Citations {
		if c.N != i+1 || c.ID == "" || c.Session == "" {
			t.Errorf("citation %+v", c)
		}
	}
	if pkg.CompressionRatio >= 1 || pkg.CompressionRatio <= 0 {
		t.Errorf("compression ratio %v", pkg.CompressionRatio)
	}
}

// TestBudgetDrops: a tight budget drops candidates for budget, and says so.
func TestBudgetDrops(t *testing.T) {
	var recs []*mneme.Record
	for i := range 40 {
		recs = append(recs, &mneme.Record{Text: "The deploy of service " + strings.Repeat("x", i+1) + " finished after the database migration ran.", SessionID: "s", OccurredAt: at(i)})
	}
	eng := engine(t, recs...)
	pkg := build(t, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "deploy migration"}, Budget: 60})
	reasons := map[string]int{}
	for _, d := range pkg.Dropped {
		reasons[d.Reason]++
	}
	if reasons[contextpack.DropBudget] == 0 || pkg.TokensUsed > 60 || len(pkg.Citations) == 0 {
		t.Fatalf("tokens %d, citations %d, drops %v", pkg.TokensUsed, len(pkg.Citations), reasons)
	}
}

// TestRedundancy: the same words in a second record are dropped as redundant.
func TestRedundancy(t *testing.T) {
	eng := engine(t,
		&mneme.Record{Text: "Ana prefers dark roast coffee from the corner shop.", Project: "a"},
		&mneme.Record{Text: "ana prefers DARK roast coffee, from the corner shop!", Project: "a"})
	pkg := build(t, eng, contextpack.Request{RecallRequest: mneme.RecallRequest{Query: "coffee Ana prefers"}, Budget: 300})
	if len(pkg.Citations) != 1 || len(pkg.Dropped) != 1 || pkg.Dropped[0].Reason != contextpack.DropRedundancy {
		t.Fatalf("citations %v dropped %v", pkg.Citations, pkg.Dropped)
	}
}

// TestBadInput: budgets out of range and empty queries are EINVALID and
// name the allowed range.
func TestBadInput(t *testing.T) {
	eng := engine(t, turns()...)
	for _, req := range []contextpack.Request{
		{RecallRequest: mneme.RecallRequest{Query: "release"}, Budget: 49},
		{RecallRequest: mneme.RecallRequest{Query: "release"}, Budget: 100_001},
		{RecallRequest: mneme.RecallRequest{Query: "  "}},
	} {
		_, err := contextpack.Build(context.Background(), eng, req, mneme.Internal)
		if mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("%+v: %v", req, err)
		}
		if req.Budget != 0 && !strings.Contains(err.Error(), "50 to 100000") {
			t.Errorf("%v does not give the range", err)
		}
	}
	var r contextpack.Request
	if err := mneme.DecodeStrict([]byte(`{"query":"x","budget":0}`), &r); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Errorf("budget 0: %v", err)
	}
	if err := mneme.DecodeStrict([]byte(`{"query":"x","budget":700,"k":5}`), &r); err != nil || r.Budget != 700 || r.K != 5 {
		t.Errorf("decode: %v %+v", err, r)
	}
}

func TestSentences(t *testing.T) {
	text := "Dr. Smith arrived at 5 p.m. today. He said \"hello!\" Then left.\nNew line? Yes"
	var got []string
	for _, r := range contextpack.Sentences(text) {
		got = append(got, text[r.Start:r.End])
	}
	want := []string{"Dr. Smith arrived at 5 p.m. today.", "He said \"hello!\"", "Then left.", "New line?", "Yes"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
}

// TestHyDEProvenance: a package built with HyDE names the hypothesis its
// recall embedded (generator, version, hash of the text, supplied or
// not); one supplied for another query is refused.
func TestHyDEProvenance(t *testing.T) {
	eng := engine(t, turns()...)
	req := func(query, hyde string) contextpack.Request {
		var r contextpack.Request
		if err := mneme.DecodeStrict([]byte(`{"query":"`+query+`","hyde":`+hyde+`}`), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	text := "The release moved to Thursday."
	sum := sha256.Sum256([]byte(text))
	for _, c := range []struct {
		name, hyde string
		want       mneme.HyDEProvenance
	}{
		{"supplied", `{"hypothesis":"` + text + `","query":"why did the release move","generator_id":"agent","generator_version":"3"}`,
			mneme.HyDEProvenance{GeneratorID: "agent", GeneratorVersion: "3", HypothesisSHA256: hex.EncodeToString(sum[:]), Supplied: true}},
		{"generated", `true`, mneme.HyDEProvenance{GeneratorID: mneme.PRFGeneratorID, GeneratorVersion: mneme.PRFGeneratorVersion}},
	} {
		pkg := build(t, eng, req("why did the release move", c.hyde))
		if pkg.HyDE == nil {
			t.Fatalf("%s: no hyde provenance in the package", c.name)
		}
		got := *pkg.HyDE
		if !c.want.Supplied {
			if len(got.HypothesisSHA256) != 64 {
				t.Errorf("%s: hash %q", c.name, got.HypothesisSHA256)
			}
			got.HypothesisSHA256 = ""
		}
		if got != c.want {
			t.Errorf("%s: provenance %+v, want %+v", c.name, got, c.want)
		}
	}
	if pkg := build(t, eng, req("why did the release move", "false")); pkg.HyDE != nil {
		t.Errorf("no hyde asked, provenance %+v", pkg.HyDE)
	}
	r := req("why did the release move", `{"hypothesis":"`+text+`","query":"who adopted a cat","generator_id":"agent"}`)
	if _, err := contextpack.Build(context.Background(), eng, r, mneme.Internal); mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "is not the request's query") {
		t.Fatalf("hypothesis for another query: %v", err)
	}
}
