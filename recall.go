package mneme

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/quality"
	"github.com/mneme-ai/mneme/rank"
)

// Mode chooses the retrieval lanes of a recall.
type Mode string

const (
	Hybrid  Mode = "hybrid"  // words and meaning, fused (the default)
	Vector  Mode = "vector"  // meaning: nearest embeddings
	Lexical Mode = "lexical" // words: BM25
)

// Fusion chooses how hybrid recall combines its two lanes: Weighted or
// RRF (package rank).
type Fusion = rank.Fusion

const (
	// Weighted adds the lanes' scores, each normalised to 0..1:
	// alpha·lexical + (1−alpha)·vector.
	Weighted = rank.Weighted
	// RRF adds 1/(60+rank) over the lanes (reciprocal rank fusion), scaled
	// so a record first in both lanes scores 1.
	RRF = rank.RRF
)

// RerankExplain shows the reranker's features and their sum (package rank).
type RerankExplain = rank.RerankExplain

// Query is a recall request.
type Query struct {
	Text    string
	Filter  Filter
	K       int
	Explain bool
	Report  bool // add a content-free quality report (package quality)

	Mode   Mode    // "" means Hybrid
	Fusion Fusion  // "" means the profile's (weighted by default)
	Alpha  float64 // weight of the lexical lane in weighted fusion; 0 means the profile's (0.35 by default)
	// Profile names the ranking profile (the Engine's, see WithProfiles);
	// "" means the Engine's own.
	Profile  string
	MinScore float64 // drop hits whose final score is below
	// IncludeUnmatched also returns hits without evidence (see
	// rank.Profile.Evidence), as recall did before they were held back.
	IncludeUnmatched bool
	// NoFeedback turns off the second search with the words of the best
	// hits (see rank.Profile.FeedbackTerms).
	NoFeedback bool

	Rerank   bool          // rerank the candidates (see rank.Profile.Rerank)
	MMR      float64       // λ of maximal marginal relevance, in (0, 1]; 0: off
	Expand   int           // add up to this many neighbours per hit
	HalfLife time.Duration // recency weighting; 0: off
	// HyDE embeds a hypothetical answer beside the query: Hypothesis if
	// given, else one from the engine's generator.
	HyDE       bool
	Hypothesis *Hypothesis
	// OwnCache: the caller caches what it makes of the result (a context
	// package), so the result itself is neither looked up nor kept; the
	// query embedding and the reranker's verdict still are.
	OwnCache bool

	prof *rank.Profile // the profile Profile names, once checked (CheckQuery)
}

// MaxK bounds the number of hits one recall returns.
const MaxK = 1000

// Hit is one recalled record.
type Hit struct {
	ID      string   `json:"id"`
	Score   float64  `json:"score"`
	Record  *Record  `json:"record"`
	Explain *Explain `json:"explain,omitempty"`
	// Weak: no evidence (no query word, a meaning below the match floor),
	// returned because a filter left few records and none had any: the
	// best of what the filter chose (Result.Weak says why).
	Weak bool `json:"weak,omitempty"`

	// expandedFrom, relation and direction mark a record expansion added
	// (see Expansion, Direction).
	expandedFrom, relation, direction string
}

// Direction is DirIncoming for a record expansion added because it links
// to its hit, "" otherwise.
func (h Hit) Direction() string { return h.direction }

// Expansion says, for a record expansion added, the hit it was added for
// and how it relates to it (before, after, supersedes, or a link's type);
// "" for a hit of the search itself.
func (h Hit) Expansion() (from, relation string) { return h.expandedFrom, h.relation }

// Explain says why a record was recalled. Scores are 0..1; a rank of 0
// means the lane did not find the record.
type Explain struct {
	Retrieval    string   `json:"retrieval"` // bm25, vector, hybrid (both lanes), window (the search of the time the query names alone), or expand
	Fusion       Fusion   `json:"fusion,omitempty"`
	FusedScore   float64  `json:"fused_score"`
	LexicalScore float64  `json:"lexical_score"`
	VectorScore  float64  `json:"vector_score"`
	BM25         float64  `json:"bm25"`
	LexicalRank  int      `json:"lexical_rank"`
	VectorRank   int      `json:"vector_rank"`
	MatchedTerms []string `json:"matched_terms"`
	QueryTerms   []string `json:"query_terms"`
	// FeedbackTerms are the words it matched of those feedback added to
	// the query (Result.Feedback); its BM25 counts them.
	FeedbackTerms []string `json:"feedback_terms,omitempty"`
	// NoVector: the vector lane ran but the record has no vector from the
	// home's embedder (not embedded yet, or secret). Its vector_score is
	// then no measurement: under weighted fusion, the cosine estimated
	// from the other candidates at its lexical score; else 0, and it was
	// fused on its lexical lane alone.
	NoVector bool `json:"no_vector,omitempty"`

	// MatchFloor is the cosine a hit needs as evidence without a query
	// word: shown on weak hits (Hit.Weak), which are below it.
	MatchFloor    float64        `json:"match_floor,omitempty"`
	SpeakerBoost  float64        `json:"speaker_boost,omitempty"` // added: the query names the record's speaker
	SessionBoost  float64        `json:"session_boost,omitempty"` // added: SessionBoost times the best fused score of another candidate of its session
	DateBoost     float64        `json:"date_boost,omitempty"`    // added: it happened in the time the query names, or says it did
	WhenBoost     float64        `json:"when_boost,omitempty"`    // added: the query asks when, and the record tells a time
	RecentBoost   float64        `json:"recent_boost,omitempty"`  // added: the query asks for the latest, and the record is among the newest
	PreferBoost   float64        `json:"prefer_boost,omitempty"`  // added: the query asks for advice, and the record states a preference
	UpdateBoost   float64        `json:"update_boost,omitempty"`  // added: the record is the newer of two candidates that say much the same
	ShortTurn     float64        `json:"short_turn,omitempty"`    // taken away: it is a conversation turn of fewer than 80 words
	Recency       *float64       `json:"recency,omitempty"`       // half-life factor applied
	Rerank        *RerankExplain `json:"rerank,omitempty"`
	MMRSimilarity *float64       `json:"mmr_similarity,omitempty"` // to the hits chosen before it
	ExpandedFrom  string         `json:"expanded_from,omitempty"`
	Relation      string         `json:"relation,omitempty"`  // how an expanded record relates to its hit
	Direction     string         `json:"direction,omitempty"` // "incoming": the expanded record links to its hit by Relation
}

// Result is the answer to a recall.
type Result struct {
	Hits []Hit `json:"hits"`
	Mode Mode  `json:"mode"`
	// Degraded is set when the vector lane could not run, so the hits come
	// from words alone, or could not see every record (Unembedded), or
	// HyDE ran without its generator; DegradedReason says why and what to
	// do (reasons joined by "; ").
	Degraded       bool   `json:"degraded,omitempty"`
	DegradedReason string `json:"degraded_reason,omitempty"`
	// Unembedded counts the records passing the filter that have no vector
	// from the home's embedder although they could (not secret): the
	// vector lane cannot find them, and fusion ranks them by their words.
	// Counted when the vector lane runs.
	Unembedded int `json:"unembedded,omitempty"`
	// HeldBack counts the hits held back for want of evidence (see
	// rank.Profile.Evidence): those that would have ranked among the k.
	// Query.IncludeUnmatched returns them.
	HeldBack int `json:"held_back,omitempty"`
	// Weak says why the hits are weak (see Hit.Weak): "" when none is.
	Weak string      `json:"weak,omitempty"`
	HyDE *Hypothesis `json:"hyde,omitempty"` // the hypothesis used, and its generator
	// Feedback lists the words of the best hits added to the query for a
	// second search (see Query.NoFeedback).
	Feedback []string `json:"feedback,omitempty"`
	// VectorQuery is what the vector lane embedded in place of the query,
	// when it differs: the question as the speaker it names would ask it
	// (rank.Profile.FirstPerson).
	VectorQuery string `json:"vector_query,omitempty"`
	// Cache is hit or miss for each kind of cached result the recall
	// consulted (package cache); empty without a cache.
	Cache  CacheStatus `json:"cache_status"`
	TookMS float64     `json:"took_ms"`
	// Report is the quality report, when the query asked for one.
	Report *quality.Report `json:"report,omitempty"`
}

// degrade marks the result degraded for reason, keeping earlier reasons.
func (r *Result) degrade(reason string) {
	if r.Degraded {
		reason = r.DegradedReason + "; " + reason
	}
	r.Degraded, r.DegradedReason = true, reason
}

// check validates q and fills in defaults.
func (q *Query) check() error {
	if q.K <= 0 || q.K > MaxK {
		return Invalid("k %d is out of range: use 1 to %d", q.K, MaxK)
	}
	if err := ValidateText(q.Text); err != nil {
		return Invalid("query: %s", rawMessage(err))
	}
	if q.Filter.ContentHash != "" || q.Filter.Derived || q.Filter.Expired { // the derived indexes do not keep these; recall hides expired records
		return Invalid("recall filters neither by content hash, nor by derived_from link, nor on expired records: list them instead")
	}
	switch q.Mode {
	case "":
		q.Mode = Hybrid
	case Hybrid, Vector, Lexical:
	default:
		return Invalid("mode %q is not one of hybrid, vector, lexical", Clip(string(q.Mode)))
	}
	switch q.Fusion {
	case "", Weighted, RRF:
	default:
		return Invalid("fusion %q is not one of weighted, rrf", Clip(string(q.Fusion)))
	}
	switch {
	case q.Alpha < 0 || q.Alpha > 1:
		return Invalid("alpha %g is out of range: use 0 to 1 (the weight of words against meaning)", q.Alpha)
	case q.MinScore < 0 || q.MinScore > 1:
		return Invalid("min_score %g is out of range: scores run from 0 to 1", q.MinScore)
	case q.MMR < 0 || q.MMR > 1:
		return Invalid("mmr %g is out of range: use a λ from 0 (most diverse) to 1 (most relevant), or leave it out", q.MMR)
	case q.Expand < 0 || q.Expand > 20:
		return Invalid("expand %d is out of range: use 0 to 20 neighbours per hit", q.Expand)
	case q.HalfLife < 0:
		return Invalid("half-life %v is negative: give a duration like 30d", q.HalfLife)
	}
	if q.Hypothesis != nil {
		if q.Mode == Lexical {
			return Invalid("a hypothesis is embedded, so it needs mode hybrid or vector, not lexical")
		}
		q.HyDE = true
		if err := q.Hypothesis.Check(); err != nil {
			return err
		}
		return q.Hypothesis.checkFor(q.Text)
	}
	return nil
}

// Recall returns the records that best match q under its filter: by words
// (BM25), by meaning (nearest embeddings) or both fused, then shaped by the
// query's options in a fixed order: speaker match, recency, rerank,
// threshold, diversity, expansion.
func (e *Engine) Recall(ctx context.Context, q Query) (*Result, error) {
	start := time.Now()
	if err := e.CheckQuery(ctx, &q); err != nil {
		return nil, err
	}
	terms := textnorm.Terms(q.Text)
	if len(terms) == 0 {
		return nil, Invalid("query %q has no words to search for", Clip(q.Text))
	}
	st := CacheStatus{}
	cached, key := e.cachedRecall(ctx, st, &q)
	if cached != nil {
		// Its key covers the generation of the query's project only: a
		// link into another project may have been hidden since.
		if err := e.hideLinks(ctx, hitRecords(cached.Hits)); err != nil {
			return nil, err
		}
		cached.Cache, cached.TookMS = st, round(float64(time.Since(start).Microseconds())/1000)
		if cached.Report != nil {
			cached.Report.Cache, cached.Report.TookMS = st, cached.TookMS
		}
		return cached, nil
	}
	res, err := e.recall(ctx, q, terms, st)
	if err != nil {
		return nil, err
	}
	e.keepRecall(ctx, key, &q, res)
	res.TookMS = round(float64(time.Since(start).Microseconds()) / 1000)
	if res.Report != nil {
		res.Report.TookMS = res.TookMS
	}
	return res, nil
}

// recall runs q (checked) afresh.
func (e *Engine) recall(ctx context.Context, q Query, terms []string, st CacheStatus) (*Result, error) {
	res := &Result{Mode: q.Mode, Cache: st}
	// The lexical lane weighs each term by its frequency in the query, as
	// BM25 does; the other stages read the distinct terms.
	cq := CandidateQuery{Terms: textnorm.QueryTerms(q.Text), Filter: q.Filter, K: q.K,
		Linked: q.Expand > 0 || !ScopeFrom(ctx).seesAll()} // expansion and hiding read link targets
	few := q.K // fewer records than this under a filter are few (finalHits)
	if q.pool() {
		few = rank.UsualPool(q.K, MaxK)
		cq.K = few
	}
	if q.Mode == Vector {
		cq.Terms = nil
	}
	var rep *quality.Report
	if q.Report {
		rep = &quality.Report{Kind: quality.KindRecall, Mode: string(q.Mode), Stages: []quality.Stage{}, Reasons: []string{}}
	}
	stage := e.stageTimer(rep)
	var pv *pendingVector
	if q.Mode != Lexical {
		var err error
		if pv, err = e.vectorQuery(ctx, &q, res, terms); err != nil {
			return nil, err
		}
		if q.Mode == Vector { // no lexical lane to run meanwhile
			if cq.Vector, err = e.finishVector(ctx, &q, res, pv); err != nil {
				return nil, err
			}
			pv = nil
			stage("embed", time.Time{})
		} else if pv != nil {
			cq.VectorLater = pv.wait
		} else {
			stage("embed", time.Time{}) // it failed before it began
		}
	}
	found, err := e.search(ctx, &q, cq)
	if pv != nil { // joined even after a failed search
		vec, verr := e.finishVector(ctx, &q, res, pv)
		if err == nil {
			err = verr
		}
		cq.Vector, cq.VectorLater = vec, nil
		stage("embed", pv.at)
	}
	if err != nil {
		return nil, err
	}
	stage("search", time.Time{})
	if found.Unembedded > 0 {
		res.Unembedded = found.Unembedded
		res.degrade(unembeddedReason(q.Mode, found.Unembedded))
	}
	cands := firstScores(found.List, &q, e.now(), cq.Vector != nil, terms)
	if cands, res.Feedback, err = e.feedback(ctx, &q, cq, &found, cands, terms); err != nil {
		return nil, err
	}
	if res.Feedback != nil {
		stage("feedback", time.Time{})
	}
	e.shape(ctx, st, &q, found.List, cands)
	hits, chosen, held := finalHits(&q, found.List, cands, terms, narrowed(&q.Filter, len(found.List), few))
	res.HeldBack = held
	if len(hits) > 0 && hits[0].Weak {
		res.Weak = fmt.Sprintf("the filter left %d records and none has a query word or a meaning at the match floor (%g): these are its best", len(found.List), q.prof.MatchFloor)
	}
	stage("rank", time.Time{})
	known := knownRecords(found.Linked)
	if q.Expand > 0 {
		if hits, err = e.expand(ctx, &q, hits, known); err != nil {
			return nil, err
		}
		stage("expand", time.Time{})
	}
	if err := e.hideLinksKnown(ctx, hitRecords(hits), known); err != nil {
		return nil, err
	}
	res.Hits = hits
	if rep != nil {
		rep.Cache = st
		recallReport(ctx, rep, &q, res, found, chosen, cq.Terms != nil, cq.Vector != nil)
	}
	return res, nil
}

func hitRecords(hits []Hit) []*Record {
	recs := make([]*Record, len(hits))
	for i, h := range hits {
		recs[i] = h.Record
	}
	return recs
}

// recallReport fills in rep, the quality report of the recall q that
// found found, chose chosen and answered res.
func recallReport(ctx context.Context, rep *quality.Report, q *Query, res *Result, found Candidates, chosen []*rank.Candidate, lexical, vector bool) {
	rep.QuerySHA256, rep.ScopeSHA256 = quality.Hash(q.Text), ScopeFrom(ctx).Hash()
	rep.Candidates, rep.Hits = &quality.Lanes{}, &quality.Lanes{}
	for _, f := range found.List {
		rep.Candidates.CountFound(f.LexicalRank > 0, f.VectorRank > 0, f.window)
	}
	var final, fused, lex, vec []float64
	for _, c := range chosen {
		rep.Hits.CountFound(c.LexRank > 0, c.VecRank > 0, c.Window)
		final, fused = append(final, round(c.Score)), append(fused, c.Fused)
		if c.LexRank > 0 {
			lex = append(lex, c.LexScore)
		}
		if c.VecRank > 0 {
			vec = append(vec, c.VecScore)
		}
	}
	for range len(res.Hits) - len(chosen) {
		rep.Hits.Count(false, false) // expanded: neighbours of hits
	}
	rep.Scores = &quality.Scores{Final: quality.Summarize(final), Fused: quality.Summarize(fused),
		Lexical: quality.Summarize(lex), Vector: quality.Summarize(vec)}
	rep.Degraded = res.Degraded
	if len(res.Hits) == 0 {
		rep.AddReason(quality.NoHits)
	}
	if res.Degraded {
		rep.AddReason(quality.Degraded)
	}
	if res.HeldBack > 0 {
		rep.AddReason(quality.HeldBack)
	}
	if lexical && rep.Candidates.Lexical+rep.Candidates.Both == 0 {
		rep.AddReason(quality.NoLexicalCandidates)
	}
	if vector && rep.Candidates.Vector+rep.Candidates.Both == 0 {
		rep.AddReason(quality.NoVectorCandidates)
	}
	if lexical && vector && len(chosen) > 0 && rep.Hits.Both == 0 {
		rep.AddReason(quality.NoHitInBothLanes)
	}
	rep.TookMS = res.TookMS
	res.Report = rep
}

// unembeddedReason says what n records without a vector mean for a recall
// in mode, and the fix.
func unembeddedReason(mode Mode, n int) string {
	what, it, its := fmt.Sprintf("%d records passing the filter have", n), "them", "their"
	if n == 1 {
		what, it, its = "1 record passing the filter has", "it", "its"
	}
	what += " no vector yet (pending: written while the embedder was unavailable, or without one): "
	if mode == Vector {
		return what + "vector mode cannot find " + it + "; run `mneme sync` to embed " + it
	}
	return what + "the vector lane cannot see " + it + ", so " + its + " words rank " + it + "; run `mneme sync` to embed " + it
}

// stageTimer returns a function that reports the time from its last call
// to end (zero: now; a stage that ran beside the next ends earlier) under
// a stage's name, to the observers and to rep (may be nil).
func (e *Engine) stageTimer(rep *quality.Report) func(stage string, end time.Time) {
	last := time.Now()
	return func(stage string, end time.Time) {
		if len(e.observers) > 0 || rep != nil {
			now := time.Now()
			if !end.IsZero() && end.Before(now) {
				now = end
				if now.Before(last) {
					now = last
				}
			}
			e.stage(stage, now.Sub(last))
			if rep != nil {
				rep.Stages = append(rep.Stages, quality.Stage{Name: stage, MS: quality.MS(now.Sub(last))})
			}
			last = now
		}
	}
}

// meanUnit returns the normalised mean of unit vectors.
func meanUnit(vs [][]float32) []float32 {
	out := make([]float32, len(vs[0]))
	for _, v := range vs {
		for i, x := range v {
			out[i] += x
		}
	}
	normalize(out)
	return out
}

func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
}
