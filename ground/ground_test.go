package ground_test

import (
	"context"
	"fmt"
	"github.com/mneme-ai/mneme/internal/eval"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/ground"
	"github.com/mneme-ai/mneme/internal/skips"
)

func pkg(texts ...string) *contextpack.Package {
	p := &contextpack.Package{}
	for i, t := range texts {
		id := "r" + string(rune('a'+i))
		p.Groups = append(p.Groups, contextpack.Group{Date: "2023-05-08", Items: []contextpack.Item{{N: i + 1, ID: id,
			Spans: []contextpack.Span{{ID: id, End: len(t), Text: t}}}}})
		p.Citations = append(p.Citations, contextpack.Citation{N: i + 1, ID: id, Date: "2023-05-08"})
	}
	return p
}

func check(t *testing.T, p *contextpack.Package, answer string) *ground.Result {
	t.Helper()
	res, err := ground.Check(context.Background(), nil, "", ground.Request{Package: p, Answer: answer})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGround(t *testing.T) {
	p := pkg("Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
		"Melanie: We moved to Sweden four years ago, and the kids love the snow.")
	res := check(t, p, "Caroline went to an LGBTQ support group. Melanie moved to Sweden.")
	if !res.Supported || len(res.Sentences) != 2 || res.Sentences[0].Support[0].N != 1 || res.Sentences[1].Support[0].N != 2 {
		t.Fatalf("supported answer: %+v", res)
	}
	res = check(t, p, "Melanie moved to Norway in 2017 with Oracle.")
	if res.Supported || !slices.Contains(res.Reasons, ground.UnsupportedClaim) || !slices.Contains(res.Reasons, ground.NumberNotInEvidence) ||
		!slices.Contains(res.Reasons, ground.EntityNotInEvidence) || !slices.Contains(res.Sentences[0].MissingNumbers, "2017") ||
		!slices.Contains(res.Sentences[0].MissingNames, "Oracle") {
		t.Fatalf("unsupported answer: %+v", res)
	}
	if res := check(t, p, "In May 2023, Caroline went to a support group."); !res.Supported {
		t.Errorf("the memory's date is evidence: %+v", res)
	}
	if res := check(t, p, "  "); res.Supported || !slices.Equal(res.Reasons, []string{ground.EmptyAnswer}) {
		t.Errorf("empty answer: %+v", res)
	}
	a, b := check(t, p, "Caroline went to a group in Sweden."), check(t, p, "Caroline went to a group in Sweden.")
	a.TookMS, b.TookMS = 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Error("not deterministic")
	}
	if _, err := ground.Check(context.Background(), nil, "", ground.Request{Answer: "x"}); err == nil || !strings.Contains(err.Error(), "no package") {
		t.Errorf("no package: %v", err)
	}
}

// BenchmarkGround: a 200-word answer against a 2,000-token package,
// words alone (the embedder's cost is the model's: see docs/performance.md).
func BenchmarkGround(b *testing.B) {
	p, answer := benchInput(b)
	b.ResetTimer()
	for b.Loop() {
		ground.Check(context.Background(), nil, "", ground.Request{Package: p, Answer: answer})
	}
}

// benchInput is a 2,000-token package of 60 memories and a 200-word
// answer of 11 sentences.
func benchInput(b *testing.B) (*contextpack.Package, string) {
	var texts []string
	for i := range 60 {
		texts = append(texts, strings.Repeat("Ana said the deploy of service "+string(rune('a'+i%26))+" finished after the migration. ", 1))
		texts[i] += "The team reviewed the incident on Tuesday and agreed to add alerts for the replica lag and the disk usage."
	}
	p := pkg(texts...)
	if tok := contextpack.Tokens(strings.Join(texts, "\n")); tok < 1800 {
		b.Fatalf("package of %d tokens", tok)
	}
	answer := strings.TrimSpace(strings.Repeat("The deploy finished after the migration, and the team agreed to add alerts for replica lag on Tuesday. ", 11))
	if n := len(strings.Fields(answer)); n < 190 {
		b.Fatalf("answer of %d words", n)
	}
	return p, answer
}

// BenchmarkGroundModel: the same check with the built-in model, called
// directly (no embedding cache: every check embeds what it needs). Its
// answer repeats one sentence; Distinct has 11 different ones.
func BenchmarkGroundModel(b *testing.B) {
	p, answer := benchInput(b)
	benchModel(b, p, answer)
}

func BenchmarkGroundModelDistinct(b *testing.B) {
	p, _ := benchInput(b)
	var sents []string
	for i, what := range []string{"replica lag", "disk usage", "queue depth", "error rate", "latency", "memory", "certificates", "backups", "the cache", "the load balancer", "the scheduler"} {
		sents = append(sents, fmt.Sprintf("On Tuesday the team reviewed incident %d and agreed to add alerts for %s after the deploy of service %c finished.", i+1, what, 'a'+i))
	}
	answer := strings.Join(sents, " ")
	if n := len(strings.Fields(answer)); n < 190 {
		b.Fatalf("answer of %d words", n)
	}
	benchModel(b, p, answer)
}

// BenchmarkGroundModelWritten: 11 different sentences written from the
// package (each restates its evidence in other order and words), so that
// words alone decide them, as they do most sentences of a grounded answer.
func BenchmarkGroundModelWritten(b *testing.B) {
	p, _ := benchInput(b)
	var sents []string
	for i := range 11 {
		sents = append(sents, fmt.Sprintf("After the migration, Ana said the deploy of service %c finished, and on Tuesday the team reviewed the incident and agreed to add alerts.", 'a'+i))
	}
	answer := strings.Join(sents, " ")
	if n := len(strings.Fields(answer)); n < 190 {
		b.Fatalf("answer of %d words", n)
	}
	benchModel(b, p, answer)
}

func benchModel(b *testing.B, p *contextpack.Package, answer string) {
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		skips.Skip(b, "mneme model fetch", "the built-in model is not installed: "+err.Error())
	}
	ground.Check(context.Background(), em, "minilm", ground.Request{Package: p, Answer: answer}) // warm the model's workspaces
	cpu0 := eval.CPUTime()
	b.ResetTimer()
	for b.Loop() {
		if _, err := ground.Check(context.Background(), em, "minilm", ground.Request{Package: p, Answer: answer}); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time of the process per check: on a loaded machine wall time
	// mostly measures the wait for a core.
	b.ReportMetric(float64((eval.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// counting embeds each text as a vector of its length, and counts texts.
type counting struct{ texts []string }

func (c *counting) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.texts = append(c.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), 1}
	}
	return out, nil
}

// TestEmbedSpansThatMatter: only sentences whose words leave the verdict
// open are embedded; of a large package, only each such sentence's best
// span by shared words, each distinct text once (a span not embedded
// shows no similarity); a small package is embedded whole.
func TestEmbedSpansThatMatter(t *testing.T) {
	var texts []string
	for i := range 40 {
		texts = append(texts, fmt.Sprintf("Filler note %d about the weather and lunch.", i))
	}
	texts[17] = "Melanie moved to Sweden four years ago."
	texts[31] = "The kids love the snow in Sweden."
	open := "Melanie relocated abroad years back."
	answer := open + " " + open + " Melanie moved to Sweden."
	em := &counting{}
	res, err := ground.Check(context.Background(), em, "count", ground.Request{Package: pkg(texts...), Answer: answer, Report: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{open, texts[17]} // its best span; texts[31] shares less
	if !slices.Equal(em.texts, want) || res.Report.Ground.SpansEmbedded != 1 || res.Report.Ground.Spans != 40 {
		t.Errorf("embedded %q (report %+v), want %q", em.texts, res.Report.Ground, want)
	}
	s := res.Sentences
	if len(s) != 3 || s[0].Support[0].N != 18 || s[0].Semantic == nil || s[0].Support[0].Semantic == nil {
		t.Errorf("the open sentence: %+v", res)
	}
	for _, sup := range s[0].Support[1:] {
		if sup.Semantic != nil {
			t.Errorf("span %d was not embedded but shows a similarity", sup.N)
		}
	}
	if !s[2].Supported || s[2].Semantic != nil || s[2].Score < ground.Threshold {
		t.Errorf("words alone decide the last sentence: %+v", s[2])
	}
	em = &counting{}
	ground.Check(context.Background(), em, "count", ground.Request{Package: pkg(append(texts[:4:4], texts[17])...), Answer: open})
	if len(em.texts) != 6 {
		t.Errorf("small package: embedded %q", em.texts)
	}
}

// TestWordsDecide: a sentence the words decide gets the verdict the model
// would give it, whatever the similarity.
func TestWordsDecide(t *testing.T) {
	p := pkg("Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
		"Melanie: We moved to Sweden four years ago, and the kids love the snow.")
	for _, answer := range []string{"Caroline went to an LGBTQ support group.", "Oracle bought Norway in 2019."} {
		for _, sim := range []float32{-1, 1} {
			res, err := ground.Check(context.Background(), constant(sim), "c", ground.Request{Package: p, Answer: answer})
			if err != nil {
				t.Fatal(err)
			}
			want := strings.HasPrefix(answer, "Caroline")
			if res.Supported != want || res.Sentences[0].Semantic != nil {
				t.Errorf("%q, similarity %v: %+v", answer, sim, res.Sentences[0])
			}
		}
	}
}

// constant embeds answers as (1, 0) and evidence as (sim, …): every
// sentence has similarity sim to every span.
type constant float32

func (c constant) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{1, 0}
		if strings.Contains(t, ":") {
			out[i] = []float32{float32(c), float32(math.Sqrt(1 - float64(c*c)))}
		}
	}
	return out, nil
}

// TestMismatches: a sentence copied from its evidence scores at least 0.9;
// one that changes a number, a date or a name, denies what the evidence
// says or names what it rejects is not supported and says why, and a
// value missing twice is listed once.
func TestMismatches(t *testing.T) {
	p := pkg("Ops: After the March 2024 incident we double-charged 14 customers and refunded them on Friday.",
		"Ops: Money never floats and PostgreSQL was chosen over MongoDB for billing.",
		"Caroline: I went to the LGBTQ support group yesterday and it was so powerful.")
	for _, c := range []struct {
		answer string
		ok     bool
		reason string
	}{
		{"After the March 2024 incident we double-charged 14 customers and refunded them on Friday.", true, ""},
		{"We double-charged 41 customers.", false, ground.NumberMismatch},
		{"We double-charged 14 customers in June 2024.", false, ground.DateMismatch},
		{"After the March 2022 incident we refunded them.", false, ground.DateMismatch}, // 2023 is the memories' date
		{"The LGBTQ support group was Melanie's idea.", false, ground.EntityNotInEvidence},
		{"Money is stored as floats in MongoDB.", false, ground.Negation},
		{"Billing runs on MongoDB.", false, ground.EntityMismatch},
		{"Caroline did not go to the LGBTQ support group.", false, ground.Negation},
		{"Caroline went to the LGBTQ support group on 7 May 2023.", true, ""}, // yesterday, from the memory's date 2023-05-08
		{"Caroline went to the LGBTQ support group on 12 May 2023.", false, ground.DateMismatch},
	} {
		res := check(t, p, c.answer)
		if res.Supported != c.ok || c.reason != "" && !slices.Contains(res.Reasons, c.reason) || c.ok && res.Score < 0.9 {
			t.Errorf("%q: supported %v (score %.2f, reasons %v), want %v with %q", c.answer, res.Supported, res.Score, res.Reasons, c.ok, c.reason)
		}
	}
	res := check(t, p, "We refunded 250 customers, 250 of them twice.")
	if s := res.Sentences[0]; !slices.Equal(s.MissingNumbers, []string{"250"}) {
		t.Errorf("missing numbers %q, want 250 once", s.MissingNumbers)
	}
}

// TestContradictionOrder: of two sentences flagged with a mismatch, the
// one the evidence otherwise confirms word for word is the surer
// contradiction and scores lower than one the evidence barely touches
// (a value it may only imply, like a year counted back from "seven years
// now").
func TestContradictionOrder(t *testing.T) {
	p := pkg("Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
		"Melanie: This book I read last year reminds me to always pursue my dreams.")
	for _, c := range []struct{ surer, vaguer string }{
		{"Caroline did not go to the LGBTQ support group.", "Since 2016."},
		{"Caroline went to the LGBTQ support group on 12 May 2023.", "In 2019."},
	} {
		a, b := check(t, p, c.surer), check(t, p, c.vaguer)
		if a.Supported || b.Supported || a.Score >= b.Score {
			t.Errorf("%q scores %.4f (%v), %q %.4f (%v): want the first lower, both unsupported",
				c.surer, a.Score, a.Reasons, c.vaguer, b.Score, b.Reasons)
		}
	}
}

// TestAddresseeIsNoActor: in a turn, the one spoken to ("Hey Maria") did
// not do what the speaker tells; a name in that role is flagged.
func TestAddresseeIsNoActor(t *testing.T) {
	p := pkg("John: Hey Maria, great chatting with you again! I lost my job at the mechanical engineering company.",
		"Melanie: Thanks, Caroline! We celebrated my daughter's birthday with a concert.")
	for _, c := range []struct {
		answer string
		ok     bool
	}{
		{"John lost his job at the mechanical engineering company.", true},
		{"John: Hey Maria, great chatting with you again!", true}, // asked back word for word
		{"Maria lost her job at the mechanical engineering company.", false},
		{"Melanie celebrated her daughter's birthday with a concert.", true},
		{"Caroline celebrated her daughter's birthday with a concert.", false},
	} {
		res := check(t, p, c.answer)
		if res.Supported != c.ok || !c.ok && !slices.Contains(res.Reasons, ground.EntityMismatch) {
			t.Errorf("%q: supported %v (score %.2f, reasons %v), want %v", c.answer, res.Supported, res.Score, res.Reasons, c.ok)
		}
	}
}

// TestCountedBack: a year or month counted back from the memory's date
// ("four years ago" on 2023-05-08) is evidence for the year or month
// meant, not for others.
func TestCountedBack(t *testing.T) {
	p := pkg("Melanie: We moved to Sweden four years ago, and the kids love the snow.",
		"Caroline: I started painting 2 months ago.")
	for _, c := range []struct {
		answer string
		ok     bool
	}{
		{"Melanie moved to Sweden in 2019.", true},
		{"Melanie moved to Sweden in 2017.", false},
		{"Caroline started painting in March 2023.", true},
		{"Caroline started painting in January 2023.", false},
	} {
		if res := check(t, p, c.answer); res.Supported != c.ok {
			t.Errorf("%q: supported %v (score %.2f, reasons %v), want %v", c.answer, res.Supported, res.Score, res.Reasons, c.ok)
		}
	}
}
