package mneme

import (
	"context"

	"github.com/mneme-ai/mneme/rank"
)

// Pseudo-relevance feedback (RM3-like): a short hybrid query adds the words
// that its best hits share and it lacks, and searches again (the words are
// chosen by rank.Profile.FeedbackTerms).

// feedback searches again with the words feedbackTerms returns, if any:
// found becomes what the second search found, and it returns the new
// candidates with their boosts, and the added words.
func (e *Engine) feedback(ctx context.Context, q *Query, cq CandidateQuery, found *Candidates, cands []*rank.Candidate, terms []string) ([]*rank.Candidate, []string, error) {
	if q.NoFeedback || q.Mode != Hybrid || len(terms) > q.prof.FeedbackMaxTerms {
		return cands, nil, nil
	}
	extra := q.prof.FeedbackTerms(cands, terms)
	if len(extra) == 0 {
		return cands, nil, nil
	}
	cq.Terms = q.prof.FeedbackQuery(cq.Terms, extra) // the query's terms with their own frequencies
	again, err := e.search(ctx, q, cq)
	if err != nil {
		return nil, nil, err
	}
	*found = again
	cands = firstScores(found.List, q, e.now(), cq.Vector != nil, terms)
	for _, c := range cands {
		c.Matched, c.Feedback = rank.SplitMatched(c.Matched, extra)
	}
	return cands, extra, nil
}
