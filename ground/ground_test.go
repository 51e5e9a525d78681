package ground_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
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
	res = check(t, p, "Melanie moved to Norway in 2019 with Oracle.")
	if res.Supported || !slices.Contains(res.Reasons, ground.UnsupportedClaim) || !slices.Contains(res.Reasons, ground.NumberNotInEvidence) ||
		!slices.Contains(res.Reasons, ground.EntityNotInEvidence) || !slices.Contains(res.Sentences[0].MissingNumbers, "2019") ||
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
// words alone (the embedder's cost is the model's: see the README).
func BenchmarkGround(b *testing.B) {
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
	b.ResetTimer()
	for b.Loop() {
		ground.Check(context.Background(), nil, "", ground.Request{Package: p, Answer: answer})
	}
}
