package rank

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Doc is what ranking reads of a record.
type Doc struct {
	ID      string
	Title   string
	Text    string
	Speaker string
	Session string    // session id; "" outside a conversation
	Type    string    // episodic, semantic, procedural
	Time    time.Time // event time: when it happened, else when it was written
}

// Found is a record with what each lane that ran says about it (a store's
// candidate).
type Found struct {
	Doc         Doc
	LexicalRank int     // 1-based rank in the BM25 top K; 0: not in it
	BM25        float64 // raw BM25 (higher is better; 0: no query term)
	Matched     []string
	VectorRank  int     // 1-based rank among the nearest K; 0: not in it
	Similarity  float64 // cosine similarity with the query vector
	HasVector   bool    // false: the vector lane ran but cannot see it
	// Window: found by the search restricted to the time the query names
	// alone (see Profile.Window), so neither rank says where it stands.
	Window bool
}

// Candidate is a record found by one lane or both, with what each lane and
// each later stage said about it.
type Candidate struct {
	Doc              *Doc
	Index            int      // its position in the list Fuse was given
	LexRank, VecRank int      // 1-based; 0: the lane did not find it
	BM25             float64  // raw
	LexScore         float64  // 0..1
	VecScore         float64  // cosine similarity (under weighted fusion, estimated when NoVector)
	NoVector         bool     // the vector lane ran but cannot see the record
	Window           bool     // found by the window search alone (Found.Window)
	Matched          []string // query terms
	Feedback         []string // words added by feedback
	Fused            float64  // after fusion
	Score            float64  // after every stage: what ranks the hits

	Speaker float64 // SpeakerBoost, when the query names the speaker
	Session float64 // SessionBoost times the best fused score of another turn of its session
	Date    float64 // DateBoost, when it happened in the time the query names
	When    float64 // WhenBoost: the query asks when, and its text tells a time
	Recent  float64 // RecentBoost times its place in time among the candidates
	Prefer  float64 // PreferBoost: the query asks for advice, and it states a preference
	Update  float64 // UpdateBoost: it is the newer of two candidates that say much the same
	Short   float64 // taken away: it is a short turn (ShortTurnPenalty)
	Recency *float64
	Rerank  *RerankExplain
	MMRSim  *float64
	terms   map[string]bool // for diversity, computed on demand
}

// Evidence reports whether c has a reason to be a hit: a query term in its
// words (its text, title, tags, neighbouring turns, or its speaker's
// name), a cosine similarity at least the profile's MatchFloor, or an
// event time in the time the query names.
func (p *Profile) Evidence(c *Candidate) bool {
	return c.BM25 > 0 || len(c.Matched) > 0 || c.Speaker > 0 || c.Date > 0 || (!c.NoVector && c.VecScore >= p.MatchFloor)
}

// Retrieval names the lanes that found c: hybrid (both), vector or bm25;
// window when only the search restricted to the time the query names did.
func (c *Candidate) Retrieval() string {
	switch {
	case c.LexRank > 0 && c.VecRank > 0:
		return "hybrid"
	case c.VecRank > 0:
		return "vector"
	case c.LexRank == 0 && c.Window:
		return "window"
	}
	return "bm25"
}

// termSet is the record's folded terms, for coverage and diversity.
func (c *Candidate) termSet() map[string]bool {
	if c.terms == nil {
		c.terms = map[string]bool{}
		for _, t := range textnorm.Terms(c.Doc.Title + " " + c.Doc.Text) {
			c.terms[t] = true
		}
	}
	return c.terms
}

// ByScore sorts best first; ties go to the newer record, then the id, so
// equal inputs always give the same order.
func ByScore(cands []*Candidate) []*Candidate {
	slices.SortStableFunc(cands, func(a, b *Candidate) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), b.Doc.Time.Compare(a.Doc.Time), cmp.Compare(a.Doc.ID, b.Doc.ID))
	})
	return cands
}

// ByTime raises every score by the candidate's place in time among them
// (1 for the newest, 0 for the oldest) so that time orders them: a filter
// chose the records, and the question asks for the latest.
func ByTime(cands []*Candidate) {
	oldest, newest := minMax(len(cands), func(i int) float64 { return float64(cands[i].Doc.Time.UnixNano()) })
	for _, c := range cands {
		r := Round(scale(float64(c.Doc.Time.UnixNano()), oldest, newest))
		c.Recent += r
		c.Score += r
	}
}

// Round rounds a score to six decimals, as explain shows it.
func Round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// minMax returns the range of at(0..n-1), skipping NaNs.
func minMax(n int, at func(int) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range n {
		if x := at(i); !math.IsNaN(x) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return lo, hi
}

// scale maps x from [lo, hi] to [0, 1]; a lane whose scores are all equal
// gives each of its records 1.
func scale(x, lo, hi float64) float64 {
	if hi <= lo {
		return 1
	}
	return (x - lo) / (hi - lo)
}
