package mneme_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/rank"
	"github.com/mneme-ai/mneme/sqlite"
)

var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// engine opens an engine on a fresh SQLite home with the hash embedder
// (words as features: enough meaning for these tests) and stores recs.

// defaults is the ranking profile the engines of these tests use.
var defaults = rank.Default()

func engine(t *testing.T, recs ...mneme.Record) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	eng := reopen(s)
	for i := range recs {
		if _, err := eng.Remember(context.Background(), []*mneme.Record{&recs[i]}, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return eng
}

// reopen is an engine over s with the tests' clock and embedder, then opts.
func reopen(s mneme.Store, opts ...mneme.Option) *mneme.Engine {
	em, _ := hash.New(64)
	base := []mneme.Option{mneme.WithClock(func() time.Time { return now }), mneme.WithEmbedder(em)}
	return mneme.NewEngine(s, append(base, opts...)...)
}

func recall(t *testing.T, eng *mneme.Engine, q mneme.Query) *mneme.Result {
	t.Helper()
	if q.K == 0 {
		q.K = 10
	}
	q.Explain = true
	res, err := eng.Recall(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func texts(res *mneme.Result) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Record.Text)
	}
	return out
}

func at(days int) *time.Time { t := now.AddDate(0, 0, -days); return &t }

func TestRecallModesExplain(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "deploy the release with goreleaser"},
		mneme.Record{Text: "goreleaser builds release binaries"},
		mneme.Record{Text: "lunch menu on friday"})
	hybrid := recall(t, eng, mneme.Query{Text: "release goreleaser", IncludeUnmatched: true})
	if hybrid.Mode != mneme.Hybrid || hybrid.Degraded || len(hybrid.Hits) != 3 {
		t.Fatalf("hybrid: %+v", hybrid)
	}
	for i, h := range hybrid.Hits {
		x := h.Explain
		if h.Score != x.FusedScore || x.Fusion != mneme.Weighted || x.VectorRank == 0 || (i > 0 && h.Score > hybrid.Hits[i-1].Score) {
			t.Fatalf("hybrid hit %d: score %v, explain %+v", i, h.Score, x)
		}
		a := defaults.Alpha
		want := a*x.LexicalScore + (1-a)*max(0, x.VectorScore)
		if d := x.FusedScore - want; d > 1e-5 || d < -1e-5 {
			t.Fatalf("hit %d: fused %v, want %v·%v + %v·%v", i, x.FusedScore, a, x.LexicalScore, 1-a, x.VectorScore)
		}
	}
	if x := hybrid.Hits[0].Explain; x.Retrieval != "hybrid" || x.LexicalRank != 1 || len(x.MatchedTerms) != 2 {
		t.Fatalf("top hit explain: %+v", x)
	}
	if x := hybrid.Hits[2].Explain; hybrid.Hits[2].Record.Text != "lunch menu on friday" || x.Retrieval != "vector" || x.LexicalRank != 0 || x.BM25 != 0 {
		t.Fatalf("the unrelated record: %+v", x)
	}
	lexical := recall(t, eng, mneme.Query{Text: "release goreleaser", Mode: mneme.Lexical})
	if len(lexical.Hits) != 2 || lexical.Hits[0].Score != 1 || lexical.Hits[0].Explain.Retrieval != "bm25" || lexical.Hits[0].Explain.Fusion != "" {
		t.Fatalf("lexical: %+v", lexical.Hits)
	}
	vector := recall(t, eng, mneme.Query{Text: "release goreleaser", Mode: mneme.Vector, IncludeUnmatched: true})
	if x := vector.Hits[0].Explain; len(vector.Hits) != 3 || x.Retrieval != "vector" || x.LexicalRank != 0 || vector.Hits[0].Score != x.VectorScore {
		t.Fatalf("vector: %+v", x)
	}
	rrf := recall(t, eng, mneme.Query{Text: "release goreleaser", Fusion: mneme.RRF})
	if x := rrf.Hits[0].Explain; x.Fusion != mneme.RRF || x.FusedScore != 1 {
		t.Fatalf("rrf: first in both lanes should score 1: %+v", x)
	}
	floor := recall(t, eng, mneme.Query{Text: "release goreleaser", MinScore: hybrid.Hits[1].Score})
	if len(floor.Hits) != 2 {
		t.Fatalf("min score %v kept %d hits, want 2", hybrid.Hits[1].Score, len(floor.Hits))
	}
}

// TestRecallHoldsBackUnmatched: a hit needs evidence, a query term in its
// words or a cosine at MatchFloor; the rest are held back and counted,
// unless the query includes them, and RRF gives them no credit for being
// the nearest of unrelated records.
func TestRecallHoldsBackUnmatched(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "deploy the release with goreleaser"},
		mneme.Record{Text: "goreleaser builds release binaries"},
		mneme.Record{Text: "lunch menu on friday"},
		mneme.Record{Text: "see you then", Speaker: "Maria Costa"})
	const unrelated = "lunch menu on friday"
	for _, tc := range []struct {
		name     string
		q        mneme.Query
		hits     int // by default
		heldBack int
	}{
		{"hybrid", mneme.Query{Text: "release goreleaser"}, 2, 2},
		{"rrf", mneme.Query{Text: "release goreleaser", Fusion: mneme.RRF}, 2, 2},
		{"vector: meaning alone, and one is too far", mneme.Query{Text: "release goreleaser", Mode: mneme.Vector}, 1, 3},
		{"lexical", mneme.Query{Text: "release goreleaser", Mode: mneme.Lexical}, 2, 0},
		{"only within k", mneme.Query{Text: "release goreleaser", K: 2}, 2, 0},
		{"nothing matches", mneme.Query{Text: "orbital mechanics of comets"}, 0, 4},
		{"the speaker's name is a match", mneme.Query{Text: "what did maria say"}, 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := recall(t, eng, tc.q)
			if len(res.Hits) != tc.hits || res.HeldBack != tc.heldBack || slices.Contains(texts(res), unrelated) {
				t.Fatalf("%d hits %q, %d held back; want %d hits, %d held back", len(res.Hits), texts(res), res.HeldBack, tc.hits, tc.heldBack)
			}
			tc.q.IncludeUnmatched = true
			all := recall(t, eng, tc.q)
			if all.HeldBack != 0 || len(all.Hits) != min(tc.hits+tc.heldBack, max(tc.q.K, 10)) {
				t.Fatalf("include unmatched: %d hits, %d held back", len(all.Hits), all.HeldBack)
			}
			for _, h := range all.Hits[len(res.Hits):] {
				if x := h.Explain; len(x.MatchedTerms) != 0 || x.VectorScore >= defaults.MatchFloor || x.SpeakerBoost != 0 {
					t.Fatalf("%q has evidence but was held back: %+v", h.Record.Text, x)
				}
				if x := h.Explain; tc.q.Fusion == mneme.RRF && x.FusedScore != 0 {
					t.Fatalf("rrf scores %q, an unrelated record, %v", h.Record.Text, x.FusedScore)
				}
			}
		})
	}
}

func TestRecallRejectsBadOptions(t *testing.T) {
	eng := engine(t, mneme.Record{Text: "anything"})
	for _, c := range []struct {
		q    mneme.Query
		want string
	}{
		{mneme.Query{Mode: "semantic"}, `mode "semantic" is not one of`},
		{mneme.Query{Fusion: "max"}, `fusion "max" is not one of`},
		{mneme.Query{Alpha: 1.5}, "alpha 1.5 is out of range"},
		{mneme.Query{MinScore: -1}, "min_score -1 is out of range"},
		{mneme.Query{MMR: 2}, "mmr 2 is out of range"},
		{mneme.Query{Expand: 50}, "expand 50 is out of range"},
		{mneme.Query{HalfLife: -time.Hour}, "half-life -1h0m0s is negative"},
		{mneme.Query{Hypothesis: &mneme.Hypothesis{Text: " ", Query: "anything", GeneratorID: "me"}}, "hyde.hypothesis is blank"},
		{mneme.Query{Hypothesis: &mneme.Hypothesis{Text: "an answer", Query: "anything"}}, "hyde.generator_id is blank"},
		{mneme.Query{Hypothesis: &mneme.Hypothesis{Text: "an answer", GeneratorID: "me"}}, "hyde.query is blank"},
		{mneme.Query{Hypothesis: &mneme.Hypothesis{Text: "an answer", Query: "something else", GeneratorID: "me"}}, `hyde.query "something else" is not the request's query "anything"`},
		{mneme.Query{Mode: mneme.Lexical, Hypothesis: &mneme.Hypothesis{Text: "x", Query: "anything", GeneratorID: "me"}}, "needs mode hybrid or vector"},
	} {
		c.q.Text, c.q.K = "anything", 5
		_, err := eng.Recall(context.Background(), c.q)
		if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c.want) {
			t.Errorf("%+v: %v, want EINVALID %q", c.q, err, c.want)
		}
	}
}

func TestRecallDegradesWithoutVectors(t *testing.T) {
	eng := engine(t, mneme.Record{Text: "release with goreleaser"}, mneme.Record{Text: "unrelated note"})
	eng = reopen(eng.Store(), mneme.WithEmbedderError(mneme.Errorf(mneme.EUNAVAILABLE, "the model is missing: run scripts/fetch-model")))
	res := recall(t, eng, mneme.Query{Text: "goreleaser"})
	if !res.Degraded || !strings.Contains(res.DegradedReason, "run scripts/fetch-model") || len(res.Hits) != 1 || res.Hits[0].Explain.Retrieval != "bm25" {
		t.Fatalf("degraded hybrid: %+v", res)
	}
	if _, err := eng.Recall(context.Background(), mneme.Query{Text: "goreleaser", K: 3, Mode: mneme.Vector}); mneme.ErrorCode(err) != mneme.EUNAVAILABLE {
		t.Fatalf("vector mode without an embedder: %v, want EUNAVAILABLE", err)
	}
	// A write does not wait for the model: the memory is stored pending
	// embedding and the write says why; one that requires embedding fails
	// as before (changed by design: writes used to fail). A secret memory
	// is never embedded, so never pending.
	before, _ := eng.Stats(context.Background())
	if _, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "a required fact"}}, mneme.WriteOptions{RequireEmbedding: true}); mneme.ErrorCode(err) != mneme.EUNAVAILABLE ||
		!strings.Contains(mneme.ErrorMessage(err), "run scripts/fetch-model") {
		t.Fatalf("remember requiring the embedder: %v, want EUNAVAILABLE", err)
	}
	res2, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "a new fact"}}, mneme.WriteOptions{})
	if err != nil || res2.PendingEmbeddings != 1 || !strings.Contains(res2.PendingReason, "run scripts/fetch-model") {
		t.Fatalf("remember without the embedder: %+v, %v, want 1 pending", res2, err)
	}
	if res2, err := eng.Remember(context.Background(), []*mneme.Record{{Text: "the vault pin", Sensitivity: mneme.Secret}}, mneme.WriteOptions{}); err != nil || res2.PendingEmbeddings != 0 {
		t.Fatalf("a secret memory needs no embedder: %+v, %v", res2, err)
	}
	after, _ := eng.Stats(context.Background())
	if after.Total != before.Total+2 || after.PendingEmbeddings != before.PendingEmbeddings+1 || after.EmbedderError == nil ||
		!strings.Contains(after.EmbedderError.Error, "run scripts/fetch-model") {
		t.Fatalf("records %d -> %d, pending %d -> %d, last error %+v: want two more, one pending", before.Total, after.Total, before.PendingEmbeddings, after.PendingEmbeddings, after.EmbedderError)
	}
	if hits := recall(t, eng, mneme.Query{Text: "new fact", Mode: mneme.Lexical}).Hits; len(hits) != 1 {
		t.Fatalf("lexical recall of the pending memory: %d hits", len(hits))
	}
	other, _ := hash.New(32) // not the home's embedder
	eng = reopen(eng.Store(), mneme.WithEmbedder(other))
	if res := recall(t, eng, mneme.Query{Text: "goreleaser"}); !res.Degraded || !strings.Contains(res.DegradedReason, "mneme reindex") {
		t.Fatalf("mismatched embedder: %+v", res)
	}
}

func TestRecallHalfLifeAndRerank(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "the deploy checklist", OccurredAt: at(60)},
		mneme.Record{Text: "the deploy checklist, revised", OccurredAt: at(1), Type: mneme.Episodic},
		mneme.Record{Text: "how to deploy: run make release", Type: mneme.Procedural, OccurredAt: at(30)})
	res := recall(t, eng, mneme.Query{Text: "deploy checklist", HalfLife: 30 * 24 * time.Hour, Mode: mneme.Lexical})
	for _, h := range res.Hits {
		age := now.Sub(h.Record.EventTime()).Hours() / 24
		if f := *h.Explain.Recency; f < 0.99*math.Exp2(-age/30) || f > 1.01*math.Exp2(-age/30) || h.Score > h.Explain.FusedScore*f+1e-6 {
			t.Fatalf("%q, %.0f days old: recency %v, score %v", h.Record.Text, age, f, h.Score)
		}
	}
	if res.Hits[0].Record.Text != "the deploy checklist, revised" {
		t.Fatalf("half-life should put the recent record first: %v", texts(res))
	}
	res = recall(t, eng, mneme.Query{Text: "how to deploy", Rerank: true, Mode: mneme.Lexical})
	top := res.Hits[0].Explain.Rerank
	if res.Hits[0].Record.Type != mneme.Procedural || top == nil || top.AskedFor != string(mneme.Procedural) || top.TypeFit != 1 || top.Phrase != 1 || top.Boost <= 0 {
		t.Fatalf("rerank: %v, explain %+v", texts(res), top)
	}
}

func TestRecallMMR(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "cache eviction policy is LRU with a 10 minute TTL"},
		mneme.Record{Text: "cache eviction policy is LRU with a 10 minute TTL in staging"},
		mneme.Record{Text: "cache warmup runs at boot"})
	plain := recall(t, eng, mneme.Query{Text: "cache eviction policy", K: 2, Mode: mneme.Lexical})
	diverse := recall(t, eng, mneme.Query{Text: "cache eviction policy", K: 2, Mode: mneme.Lexical, MMR: 0.3})
	if !strings.Contains(plain.Hits[1].Record.Text, "LRU") || diverse.Hits[1].Record.Text != "cache warmup runs at boot" {
		t.Fatalf("mmr: plain %v, diverse %v", texts(plain), texts(diverse))
	}
	if s := diverse.Hits[1].Explain.MMRSimilarity; s == nil || *s <= 0 || *diverse.Hits[0].Explain.MMRSimilarity != 0 {
		t.Fatalf("mmr explain: %+v", diverse.Hits[1].Explain)
	}
}

func TestRecallExpand(t *testing.T) {
	var recs []mneme.Record
	for i, text := range []string{"hi there", "which pet do you have", "Oscar the guinea pig", "nice, how old", "two years"} {
		recs = append(recs, mneme.Record{Text: text, SessionID: "s1", OccurredAt: at(10 - i)})
	}
	recs = append(recs, mneme.Record{Text: "the guinea pig's vet code", SessionID: "s1", OccurredAt: at(4), Sensitivity: mneme.Secret},
		mneme.Record{Text: "staging database is postgres 15", Key: "staging-db", Project: "infra"},
		mneme.Record{Text: "staging database is postgres 17", Key: "staging-db", Project: "infra"})
	eng := engine(t, recs...)
	res := recall(t, eng, mneme.Query{Text: "Oscar", K: 1, Expand: 2, Mode: mneme.Lexical})
	got := texts(res)
	if strings.Join(got, "|") != "Oscar the guinea pig|which pet do you have|nice, how old" {
		t.Fatalf("expand 2 around a turn: %v", got)
	}
	if x := res.Hits[1].Explain; x.Retrieval != "expand" || x.Relation != mneme.RelBefore || x.ExpandedFrom != res.Hits[0].ID || res.Hits[1].Score != res.Hits[0].Score {
		t.Fatalf("expanded hit: %+v", x)
	}
	res = recall(t, eng, mneme.Query{Text: "staging database", K: 1, Expand: 1})
	if got := texts(res); len(got) != 2 || got[1] != "staging database is postgres 15" || res.Hits[1].Explain.Relation != mneme.RelSupersedes {
		t.Fatalf("expand with history: %v", got)
	}
}

type fakeGenerator struct {
	calls int
	err   error
}

func (g *fakeGenerator) Generator() (string, string) { return "fake/model", "prompt-1" }
func (g *fakeGenerator) Hypothesize(_ context.Context, q string) (mneme.Hypothesis, error) {
	g.calls++
	return mneme.Hypothesis{Text: "an answer to " + q, GeneratorID: "fake/model", GeneratorVersion: "prompt-1"}, g.err
}

func TestRecallHyDE(t *testing.T) {
	eng := engine(t, mneme.Record{Text: "Oscar is a guinea pig"}, mneme.Record{Text: "which pet do you have"})
	supplied := &mneme.Hypothesis{Text: "my pet is a guinea pig", Query: "my  pet", GeneratorID: "agent", GeneratorVersion: "1"}
	if res := recall(t, eng, mneme.Query{Text: "my pet", Hypothesis: supplied}); res.HyDE == nil || *res.HyDE != *supplied {
		t.Fatalf("supplied hypothesis not reported: %+v", res.HyDE)
	}
	if res := recall(t, eng, mneme.Query{Text: "pet", HyDE: true}); res.HyDE == nil || res.HyDE.GeneratorID != mneme.PRFGeneratorID || !strings.Contains(res.HyDE.Text, "pet") || res.HyDE.Query != "pet" {
		t.Fatalf("deterministic hypothesis: %+v", res.HyDE)
	}
	g := &fakeGenerator{}
	eng = reopen(eng.Store(), mneme.WithHypothesisGenerator(g))
	for range 2 {
		if res := recall(t, eng, mneme.Query{Text: "pet", HyDE: true}); res.HyDE == nil || res.HyDE.GeneratorID != "fake/model" || res.HyDE.Query != "pet" {
			t.Fatalf("generated hypothesis: %+v", res.HyDE)
		}
	}
	if g.calls != 1 {
		t.Fatalf("the generator was called %d times for one query: the cache missed", g.calls)
	}
	down := &fakeGenerator{err: mneme.Errorf(mneme.EUNAVAILABLE, "cannot reach the language model")}
	eng = reopen(eng.Store(), mneme.WithHypothesisGenerator(down))
	res := recall(t, eng, mneme.Query{Text: "guinea", HyDE: true})
	if !res.Degraded || !strings.Contains(res.DegradedReason, "cannot reach") || res.HyDE != nil || len(res.Hits) == 0 {
		t.Fatalf("generator down: %+v", res)
	}
	eng = reopen(eng.Store(), mneme.WithHypothesisGenerator(&fakeGenerator{err: mneme.Invalid("bad prompt")}))
	if _, err := eng.Recall(context.Background(), mneme.Query{Text: "guinea pig", K: 2, HyDE: true}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("a generator's invalid-input error must fail the recall: %v", err)
	}
}

func TestRecallStagesAndPatch(t *testing.T) {
	eng := engine(t, mneme.Record{Text: "the deploy runs on fridays", Tags: []string{"ops"}})
	var stages []string
	eng.Observe(mneme.Observer{Stage: func(stage string, d time.Duration) { stages = append(stages, stage) }})
	res := recall(t, eng, mneme.Query{Text: "deploy", Expand: 1})
	if strings.Join(stages, ",") != "embed,search,rank,expand" {
		t.Fatalf("stages = %v", stages)
	}
	id := res.Hits[0].ID
	text, tags, ttl := "the deploy runs on mondays", []string{"ops", "release"}, "2d"
	r, err := eng.Patch(context.Background(), id, mneme.Patch{Text: &text, Tags: &tags, TTL: &ttl}, mneme.Internal)
	if err != nil || r.ID != id || r.Text != text || len(r.Tags) != 2 || r.ExpiresAt == nil || !r.ExpiresAt.Equal(now.Add(48*time.Hour)) {
		t.Fatalf("patch = %+v, %v", r, err)
	}
	if got := texts(recall(t, eng, mneme.Query{Text: "mondays", Mode: mneme.Lexical})); len(got) != 1 || got[0] != text {
		t.Fatalf("after the patch, recall finds %v", got)
	}
	bad := mneme.Status("gone")
	if _, err := eng.Patch(context.Background(), id, mneme.Patch{Status: &bad}, mneme.Internal); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("bad patch: %v", err)
	}
	if _, err := eng.Patch(context.Background(), "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", mneme.Patch{}, mneme.Internal); mneme.ErrorCode(err) != mneme.ENOTFOUND {
		t.Fatalf("patch of a missing id: %v", err)
	}
}

// TestRecallSpeakerMatch: a question naming a participant raises what that
// participant said over a turn that only addresses them, in every mode.
func TestRecallSpeakerMatch(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "Maria, how was the weekend?", Speaker: "Tom", SessionID: "s1"},
		mneme.Record{Text: "Great! I moved to Lisbon.", Speaker: "Maria Costa", SessionID: "s2"},
		mneme.Record{Text: "Lisbon is lovely in spring.", SessionID: "s3"})
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical, mneme.Vector} {
		res := recall(t, eng, mneme.Query{Text: "Where did Maria move?", Mode: mode})
		for _, h := range res.Hits {
			want := 0.0
			if h.Record.Speaker == "Maria Costa" {
				want = defaults.SpeakerBoost
			}
			if h.Explain.SpeakerBoost != want {
				t.Errorf("%s: %q (speaker %q): boost %v, want %v", mode, h.Record.Text, h.Record.Speaker, h.Explain.SpeakerBoost, want)
			}
		}
		if mode != mneme.Vector && (len(res.Hits) == 0 || res.Hits[0].Record.Speaker != "Maria Costa") { // the test embedder hashes words: no help there
			t.Errorf("%s: want Maria's own turn first: %v", mode, texts(res))
		}
	}
	for _, h := range recall(t, eng, mneme.Query{Text: "who moved to a new city"}).Hits {
		if h.Explain.SpeakerBoost != 0 {
			t.Errorf("no speaker named, yet %q was raised", h.Record.Text)
		}
	}
}

// TestRecallSessionMatch: a turn gains SessionBoost times the best fused
// score of another candidate of its session, in every mode; a record
// without a session gains nothing.
func TestRecallSessionMatch(t *testing.T) {
	eng := engine(t,
		mneme.Record{Text: "did you get the guinea pig in the end?", SessionID: "s1"},
		mneme.Record{Text: "yes, Oscar, he squeaks all day", SessionID: "s1"},
		mneme.Record{Text: "the weather was grey all week", SessionID: "s2"},
		mneme.Record{Text: "a guinea pig needs hay and company"})
	for _, mode := range []mneme.Mode{mneme.Hybrid, mneme.Lexical, mneme.Vector} {
		res := recall(t, eng, mneme.Query{Text: "guinea pig", Mode: mode, IncludeUnmatched: true})
		best := map[string][]float64{} // fused scores by session
		for _, h := range res.Hits {
			best[h.Record.SessionID] = append(best[h.Record.SessionID], h.Explain.FusedScore)
		}
		raised := false
		for _, h := range res.Hits {
			x, other := h.Explain, 0.0
			for _, f := range best[h.Record.SessionID] {
				if f != x.FusedScore { // the others of its session (no two score alike here)
					other = max(other, f)
				}
			}
			want := math.Round(defaults.SessionBoost*other*1e6) / 1e6
			if h.Record.SessionID == "" || len(best[h.Record.SessionID]) == 1 {
				want = 0
			}
			if math.Abs(x.SessionBoost-want) > 1e-6 || math.Abs(h.Score-max(0, x.FusedScore+x.SessionBoost-x.ShortTurn)) > 1e-5 {
				t.Errorf("%s: %q: session boost %v, want %v (score %v, fused %v)", mode, h.Record.Text, x.SessionBoost, want, h.Score, x.FusedScore)
			}
			raised = raised || x.SessionBoost > 0
		}
		if !raised {
			t.Errorf("%s: no turn was raised by its session: %v", mode, texts(res))
		}
	}
}

// TestRecallShortTurn: a conversation turn of fewer than 80 words loses
// ShortTurnPenalty per halving of its length below 80, at most twice; a
// record without a session, and a turn of 80 words, lose nothing.
func TestRecallShortTurn(t *testing.T) {
	words := func(n int) string { return "guinea pig" + strings.Repeat(" squeak", n-2) }
	cases := []struct {
		text, session string
		want          float64
	}{
		{words(10), "s1", 2 * defaults.ShortTurnPenalty}, // 10 words: at most twice
		{words(20), "s2", 2 * defaults.ShortTurnPenalty},
		{words(40), "s3", defaults.ShortTurnPenalty},
		{words(57), "s4", defaults.ShortTurnPenalty * math.Log2(80.0/57)},
		{words(80), "s5", 0},
		{words(200), "s6", 0},
		{words(10) + " note", "", 0}, // not a turn
	}
	var recs []mneme.Record
	for _, c := range cases {
		recs = append(recs, mneme.Record{Text: c.text, SessionID: c.session})
	}
	eng := engine(t, recs...)
	res := recall(t, eng, mneme.Query{Text: "guinea pig", Mode: mneme.Lexical, K: 10})
	if len(res.Hits) != len(cases) {
		t.Fatalf("%d hits, want %d", len(res.Hits), len(cases))
	}
	for _, h := range res.Hits {
		for _, c := range cases {
			if h.Record.Text != c.text {
				continue
			}
			x := h.Explain
			if math.Abs(x.ShortTurn-c.want) > 1e-6 || math.Abs(h.Score-max(0, x.FusedScore+x.SessionBoost-x.ShortTurn)) > 1e-5 {
				t.Errorf("%d words, session %q: short turn %v (score %v, fused %v), want %v", len(strings.Fields(c.text)), c.session, x.ShortTurn, h.Score, x.FusedScore, c.want)
			}
		}
	}
}

// TestRecallDateMatch: a record of the time the query names gains
// DateBoost, and that is evidence enough to be a hit: its event time falls
// in it, or its text names a time in it, said when it was ("yesterday" in
// a turn of 2 July is 1 July). The window is what was named (a day, a
// month, a range, a relative time against now): records of other days
// gain nothing.
func TestRecallDateMatch(t *testing.T) {
	on := func(y int, m time.Month, d int) *time.Time { t := time.Date(y, m, d, 15, 0, 0, 0, time.UTC); return &t }
	eng := engine(t,
		mneme.Record{Text: "On 2023-07-01 the nightly invoice job failed", OccurredAt: on(2023, 7, 1)},
		mneme.Record{Text: "we painted the fence green yesterday", OccurredAt: on(2023, 7, 2)},
		mneme.Record{Text: "lunch at the harbour", OccurredAt: on(2023, 7, 6)},
		mneme.Record{Text: "the fence got a second coat", OccurredAt: on(2023, 7, 20)},
		mneme.Record{Text: "the fence was finally finished", OccurredAt: on(2023, 9, 1)},
		mneme.Record{Text: "standup notes", OccurredAt: on(2026, 5, 26)}, // a Tuesday, the week before now (2026-06-01, a Monday)
		mneme.Record{Text: "retro notes", OccurredAt: on(2026, 5, 31)},
		mneme.Record{Text: "planning notes", OccurredAt: on(2026, 5, 18)})
	for _, tc := range []struct {
		query string
		want  []string // the records raised
	}{
		{"what happened on 2023-07-01", []string{"On 2023-07-01 the nightly invoice job failed", "we painted the fence green yesterday"}},
		{"what did we do on 1 July, 2023?", []string{"On 2023-07-01 the nightly invoice job failed", "we painted the fence green yesterday"}},
		{"what happened in July 2023", []string{"On 2023-07-01 the nightly invoice job failed", "we painted the fence green yesterday", "lunch at the harbour", "the fence got a second coat"}},
		{"what happened between July 5 and July 7 2023", []string{"lunch at the harbour"}},
		{"what happened last Tuesday", []string{"standup notes"}},
		{"what happened yesterday", []string{"retro notes"}},
		{"what happened two weeks ago", []string{"planning notes"}},
		{"what happened in September", nil}, // September 2025: no record
		{"when did we paint the fence", nil},
	} {
		res := recall(t, eng, mneme.Query{Text: tc.query})
		var raised []string
		for _, h := range res.Hits {
			if h.Explain.DateBoost != 0 {
				raised = append(raised, h.Record.Text)
			}
		}
		slices.Sort(raised)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(raised, want) {
			t.Errorf("%q raised %q, want %q", tc.query, raised, want)
		}
	}
	// No word of the query in any: the date is their evidence, and only for them.
	res := recall(t, eng, mneme.Query{Text: "what did we do on 1 July, 2023?"})
	if res.HeldBack != 6 || len(res.Hits) != 2 {
		t.Fatalf("%d hits, %d held back: a date named is evidence for the days it names, and only for those", len(res.Hits), res.HeldBack)
	}
}

// TestRecallPartlyEmbedded: records stored without an embedder (import
// --embedder none, an interrupted reindex) are ranked by their words in
// hybrid recall, in the order lexical mode gives them, and a strong word
// match among them is not buried under weaker embedded ones; the result is
// degraded, counts them under the filter and names the fix, until
// `mneme sync` embeds them.
func TestRecallPartlyEmbedded(t *testing.T) {
	ctx := context.Background()
	eng := engine(t)
	plain := mneme.NewEngine(eng.Store(), mneme.WithClock(func() time.Time { return now })) // no embedder
	filler := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima")
	var recs []*mneme.Record
	for i := range 24 {
		text := strings.Repeat("release ", 1+i%3) + strings.Repeat("checklist ", i%4) + strings.Join(filler[:i%12], " ")
		if i%4 == 1 {
			text = "goreleaser " + text
		}
		project := "a"
		if i%3 == 0 {
			project = "b"
		}
		recs = append(recs, &mneme.Record{Text: fmt.Sprintf("%s (%d)", text, i), Project: project})
	}
	strong := &mneme.Record{Text: "goreleaser release checklist: the goreleaser release checklist", Project: "a"}
	write := func(e *mneme.Engine, recs ...*mneme.Record) {
		t.Helper()
		if _, err := e.Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	write(eng, recs[:12]...)
	write(plain, append(recs[12:], strong)...) // 13 without a vector, 5 of them in project b
	embedded := map[string]bool{}
	for _, r := range recs[:12] {
		embedded[r.ID] = true
	}
	query := "goreleaser release checklist"

	lexical := recall(t, eng, mneme.Query{Text: query, K: 30, Mode: mneme.Lexical})
	if lexical.Degraded || lexical.Unembedded != 0 || len(lexical.Hits) != 25 || lexical.Hits[0].ID != strong.ID {
		t.Fatalf("lexical: degraded %v (%d unembedded), %d hits, first %q", lexical.Degraded, lexical.Unembedded, len(lexical.Hits), lexical.Hits[0].Record.Text)
	}
	for _, fusion := range []mneme.Fusion{mneme.Weighted, mneme.RRF} {
		hybrid := recall(t, eng, mneme.Query{Text: query, K: 30, Fusion: fusion})
		if !hybrid.Degraded || hybrid.Unembedded != 13 || !strings.Contains(hybrid.DegradedReason, "13 records passing the filter have no vector") ||
			!strings.Contains(hybrid.DegradedReason, "run `mneme sync`") {
			t.Fatalf("%s: degraded %v, %d unembedded: %q", fusion, hybrid.Degraded, hybrid.Unembedded, hybrid.DegradedReason)
		}
		rrf := func(rank int) float64 { return float64(min(rank, 1)) / float64(60+rank) }
		for _, h := range hybrid.Hits {
			x := h.Explain
			a := defaults.Alpha
			want := a*x.LexicalScore + (1-a)*max(0, x.VectorScore) // without a vector, an estimated cosine
			switch {
			case fusion == mneme.RRF && x.NoVector:
				want = rrf(x.LexicalRank) / rrf(1) // the lexical lane alone
			case fusion == mneme.RRF && x.VectorScore < defaults.MatchFloor: // its vector rank is no evidence
				want = rrf(x.LexicalRank) / (2 * rrf(1))
			case fusion == mneme.RRF:
				want = (rrf(x.LexicalRank) + rrf(x.VectorRank)) / (2 * rrf(1))
			}
			if d := x.FusedScore - want; d > 1e-5 || d < -1e-5 || (x.NoVector && fusion == mneme.Weighted && (x.VectorScore <= 0 || x.VectorScore > 1)) {
				t.Errorf("%s: %q fused %v, want %v (%+v)", fusion, h.Record.Text, x.FusedScore, want, x)
			}
		}
		if hybrid.Hits[0].ID != strong.ID {
			t.Errorf("%s: the strongest word match, unembedded, is buried under %q (%+v)", fusion, hybrid.Hits[0].Record.Text, hybrid.Hits[0].Explain)
		}
		var got, want []string
		for _, h := range hybrid.Hits {
			if embedded[h.ID] == h.Explain.NoVector {
				t.Fatalf("%s: %q no_vector %v", fusion, h.Record.Text, h.Explain.NoVector)
			}
			if h.Explain.NoVector {
				got = append(got, h.Record.Text)
			}
		}
		for _, h := range lexical.Hits {
			if !embedded[h.ID] {
				want = append(want, h.Record.Text)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the unembedded records rank\n%q\nin hybrid, but\n%q\nby words", fusion, got, want)
		}
	}
	filtered := recall(t, eng, mneme.Query{Text: query, Filter: mneme.Filter{Project: "b"}})
	if !filtered.Degraded || filtered.Unembedded != 4 {
		t.Fatalf("project b: degraded %v, %d unembedded, want 4", filtered.Degraded, filtered.Unembedded)
	}
	vector := recall(t, eng, mneme.Query{Text: query, Mode: mneme.Vector})
	if !vector.Degraded || vector.Unembedded != 13 || !strings.Contains(vector.DegradedReason, "vector mode cannot find them") {
		t.Fatalf("vector: degraded %v, %d unembedded: %q", vector.Degraded, vector.Unembedded, vector.DegradedReason)
	}
	if res, err := eng.Reindex(ctx); err != nil || res.Embedded != 13 {
		t.Fatalf("reindex = %+v, %v", res, err)
	}
	if after := recall(t, eng, mneme.Query{Text: query}); after.Degraded || after.Unembedded != 0 || after.Hits[0].Explain.NoVector {
		t.Fatalf("after reindex: degraded %v (%q), %d unembedded", after.Degraded, after.DegradedReason, after.Unembedded)
	}
}

// TestRecallWeighsQueryFrequency: the lexical lane weighs a word by how
// often the query has it, as BM25 does: of two records equal but for the
// word each holds, the one with the word the query repeats comes first
// (without it they tie, and the newer would).
func TestRecallWeighsQueryFrequency(t *testing.T) {
	eng := engine(t,
		mneme.Record{Project: "p", Type: mneme.Semantic, Text: "the nightly invoice job"},
		mneme.Record{Project: "p", Type: mneme.Semantic, Text: "the nightly billing job"})
	for _, c := range []struct{ query, first string }{
		{"invoice invoice billing", "the nightly invoice job"},
		{"invoice billing billing", "the nightly billing job"},
	} {
		res := recall(t, eng, mneme.Query{Text: c.query, Mode: mneme.Lexical, Filter: mneme.Filter{Project: "p"}})
		if got := texts(res); len(got) != 2 || got[0] != c.first {
			t.Errorf("%q: %q, want %q first", c.query, got, c.first)
		}
	}
}

// TestRecallWindow: a question that names a time adds the candidates of
// that time (the window search) to each lane's usual pool (max(4k, 50)),
// so the record of that time becomes a candidate though it shares no word
// with the question (the date boost then decides, see
// TestRecallDateMatch); another question over the same records, one that
// asks when without naming a time, and a lexical recall of k hits (which
// reads no pool) get no window search.
func TestRecallWindow(t *testing.T) {
	on := func(d int) *time.Time { t := time.Date(2023, 6, d, 15, 0, 0, 0, time.UTC); return &t }
	var recs []mneme.Record
	for i := range 130 {
		recs = append(recs, mneme.Record{Text: fmt.Sprintf("invoice run %d of the billing job went through", i), OccurredAt: on(2 + i%20)})
	}
	recs = append(recs, mneme.Record{Text: "the nightly export broke at midnight", OccurredAt: on(1)})
	eng := engine(t, recs...)
	for _, tc := range []struct {
		query    string
		mode     mneme.Mode
		min, max int // candidates
		window   int // of the window alone
	}{
		{"what happened to the invoice run on 1 June 2023?", mneme.Hybrid, 51, 101, 1},
		{"what happened to the invoice run in June 2023?", mneme.Hybrid, 50, 100, 0}, // every record is of June: the window search finds what the first did
		{"what happened to the invoice run?", mneme.Hybrid, 50, 100, 0},
		{"when did the invoice run go through?", mneme.Hybrid, 50, 100, 0}, // asks when, names no time
		{"what happened to the invoice run on 1 June 2023?", mneme.Lexical, 10, 10, 0},
	} {
		res := recall(t, eng, mneme.Query{Text: tc.query, Mode: tc.mode, Report: true})
		c := res.Report.Candidates
		if n := c.Total; n < tc.min || n > tc.max || c.Window != tc.window {
			t.Errorf("%q (%s): %d candidates, %d of the window alone; want %d to %d, %d", tc.query, tc.mode, n, c.Window, tc.min, tc.max, tc.window)
		}
	}
}

// TestRecallWindowNotFew: whether a filter left few records (so that the
// best of them are hits, marked weak, when none has evidence) does not
// depend on the window search of a question that names a time: 60 records
// under the filter are not few for a question of 10 hits either way.
func TestRecallWindowNotFew(t *testing.T) {
	var recs []mneme.Record
	for i := range 60 {
		recs = append(recs, mneme.Record{Type: mneme.Episodic, Text: fmt.Sprintf("zebra quartz lantern %d", 100+i)})
	}
	strict := rank.Default()
	strict.MatchFloor = 1 // no meaning is evidence: only a query word or the time named would be
	eng := reopen(engine(t, recs...).Store(), mneme.WithProfiles(map[string]rank.Profile{"strict": strict}))
	for _, q := range []string{"what went wrong", "what went wrong on 3 March 2021"} {
		res := recall(t, eng, mneme.Query{Text: q, Mode: mneme.Hybrid, Profile: "strict", Filter: mneme.Filter{Types: []mneme.Type{mneme.Episodic}}})
		if len(res.Hits) != 0 || res.Weak != "" {
			t.Errorf("%q: %d hits (weak: %q), want none: 60 records under the filter are not few", q, len(res.Hits), res.Weak)
		}
	}
}
