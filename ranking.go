package mneme

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/rank"
)

// profileFor resolves q's ranking profile and fills in the fusion and
// alpha it leaves to the profile.
func (e *Engine) profileFor(q *Query) error {
	p := e.profile
	if q.Profile != "" {
		named, ok := e.profiles[q.Profile]
		if !ok {
			return Invalid("ranking profile %q is not configured: use one of %s, or leave it out", Clip(q.Profile), e.profileNames())
		}
		p = named
	}
	q.prof = &p
	if q.Fusion == "" {
		q.Fusion = p.Fusion
	}
	if q.Alpha == 0 {
		q.Alpha = p.Alpha
	}
	return nil
}

// profileNames lists the named profiles, for an error message.
func (e *Engine) profileNames() string {
	if len(e.profiles) == 0 {
		return "none (config.json has no ranking profiles)"
	}
	names := make([]string, 0, len(e.profiles))
	for n := range e.profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// docs converts the store's candidates for package rank.
func docs(found []Candidate) []rank.Found {
	out := make([]rank.Found, len(found))
	for i, f := range found {
		r := f.Record
		out[i] = rank.Found{Doc: rank.Doc{ID: r.ID, Title: r.Title, Text: r.Text, Speaker: r.Speaker, Session: r.SessionID,
			Type: string(r.Type), Time: r.EventTime()},
			LexicalRank: f.LexicalRank, BM25: f.BM25, Matched: f.MatchedTerms,
			VectorRank: f.VectorRank, Similarity: f.Similarity, HasVector: f.HasVector, Window: f.window}
	}
	return out
}

// firstScores fuses the lanes' scores of found, adds the boosts from the
// query's speaker, dates and the candidates' sessions, and lowers short
// conversation turns.
func firstScores(found []Candidate, q *Query, now time.Time, vector bool, terms []string) []*rank.Candidate {
	cands := q.prof.Fuse(docs(found), q.Fusion, q.Alpha, q.Mode != Vector, vector)
	q.prof.Boosts(q.Text, terms, now, cands)
	return cands
}

// shape applies recency weighting and the reranker to the fused scores.
func (e *Engine) shape(ctx context.Context, st CacheStatus, q *Query, recs []Candidate, cands []*rank.Candidate) {
	if q.HalfLife > 0 {
		rank.Recency(e.now(), q.HalfLife, cands)
	}
	if q.Rerank {
		e.rerankCached(ctx, st, q, recs, cands)
	}
}

// narrowed reports whether a filter beyond the project chose the records
// and left so few that the store found fewer candidates than asked (every
// record passing it, in hybrid and vector mode).
func narrowed(f *Filter, found, asked int) bool {
	chose := len(f.Types) > 0 || len(f.Kinds) > 0 || len(f.Tags) > 0 || f.Key != "" || f.SessionID != "" || f.RunID != "" ||
		len(f.Statuses) > 0 || f.Since != nil || f.Until != nil
	return chose && found < asked
}

// finalHits orders the candidates, applies the threshold, holds back those
// without evidence (unless asked for), applies diversity, and keeps k: the
// hits, the candidates they are, and how many were held back among the
// first k. recs are the candidates' records, by rank.Candidate.Index. When
// a filter narrowed the records (few) and none has evidence, the best of
// them are the hits, marked weak: the filter already says what is wanted.
func finalHits(q *Query, recs []Candidate, cands []*rank.Candidate, terms []string, few bool) ([]Hit, []*rank.Candidate, int) {
	if few && rank.AsksRecency(q.Text) {
		rank.ByTime(cands) // "what went wrong recently" under --type episodic: the newest first
	}
	cands = rank.ByScore(cands)
	kept, without, held := cands[:0:0], []*rank.Candidate(nil), 0
	for _, c := range cands {
		switch {
		case round(c.Score) < q.MinScore: // as shown: a threshold at a hit's score keeps it
		case !q.IncludeUnmatched && !q.prof.Evidence(c):
			if len(kept)+held < q.K {
				held++
			}
			without = append(without, c)
		default:
			kept = append(kept, c)
		}
	}
	weak := few && len(kept) == 0 && len(without) > 0
	if weak {
		kept, held = without, 0
	}
	cands = kept
	if q.MMR > 0 {
		cands = rank.MMR(cands, q.MMR, q.K)
	}
	cands = cands[:min(q.K, len(cands))]
	hits := make([]Hit, len(cands))
	for i, c := range cands {
		rec := recs[c.Index].Record
		hits[i] = Hit{ID: rec.ID, Score: round(c.Score), Record: rec, Weak: weak}
		if q.Explain {
			hits[i].Explain = explain(c, q, terms)
			if weak {
				hits[i].Explain.MatchFloor = q.prof.MatchFloor
			}
		}
	}
	return hits, cands, held
}

func explain(c *rank.Candidate, q *Query, terms []string) *Explain {
	x := &Explain{Retrieval: c.Retrieval(), FusedScore: round(c.Fused), LexicalScore: round(c.LexScore),
		VectorScore: round(c.VecScore), BM25: round(c.BM25), LexicalRank: c.LexRank, VectorRank: c.VecRank,
		MatchedTerms: c.Matched, QueryTerms: terms, FeedbackTerms: c.Feedback, NoVector: c.NoVector,
		SpeakerBoost: c.Speaker, SessionBoost: c.Session, DateBoost: c.Date, WhenBoost: c.When, RecentBoost: c.Recent, PreferBoost: c.Prefer, UpdateBoost: c.Update, ShortTurn: c.Short,
		Recency: c.Recency, Rerank: c.Rerank, MMRSimilarity: c.MMRSim}
	if q.Mode == Hybrid {
		x.Fusion = q.Fusion
	}
	if x.MatchedTerms == nil {
		x.MatchedTerms = []string{}
	}
	if x.QueryTerms == nil {
		x.QueryTerms = []string{}
	}
	return x
}
