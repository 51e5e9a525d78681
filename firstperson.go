package mneme

import (
	"context"

	"github.com/mneme-ai/mneme/rank"
)

// vectorText is what the vector lane embeds for q: the question as the
// speaker it names would ask it (rank.FirstPerson, rank.Profile.FirstPerson),
// when the store tells which of the question's names are speakers of the
// records q's filter passes (SpeakerFinder); else the question as asked.
// A speaker only hidden records have is never found, so the rewrite tells
// a caller nothing it may not read.
func (e *Engine) vectorText(ctx context.Context, q *Query) (string, error) {
	sf, ok := e.store.(SpeakerFinder)
	if !ok || q.prof == nil || !q.prof.FirstPerson {
		return q.Text, nil
	}
	names := rank.NameCandidates(q.Text, MaxSpeakerNames)
	if len(names) == 0 {
		return q.Text, nil
	}
	speakers, err := sf.Speakers(ctx, names, q.Filter)
	if err != nil {
		return "", err
	}
	return rank.FirstPerson(q.Text, speakers), nil
}
