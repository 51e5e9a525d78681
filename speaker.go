package mneme

import (
	"slices"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// SpeakerBoost is added to the score of a record whose speaker the query
// names. A question about a participant ("where did Maria move?") is
// mostly answered by what that participant said, but both lanes match
// every turn that merely addresses her ("Maria, did you move?") as well.
// Chosen with `mneme bench` (docs/performance.md, "Speaker match").
const SpeakerBoost = 0.1

// speakerMatch raises the candidates whose speaker's name (any word of it,
// stopwords aside) is one of the query's terms.
func speakerMatch(terms []string, cands []*candidate) {
	asked := make(map[string]bool, len(terms))
	for _, t := range terms {
		asked[t] = true
	}
	named := map[string]bool{} // per speaker, computed once
	for _, c := range cands {
		sp := c.rec.Speaker
		if sp == "" {
			continue
		}
		n, ok := named[sp]
		if !ok {
			n = slices.ContainsFunc(textnorm.Terms(sp), func(w string) bool { return asked[w] })
			named[sp] = n
		}
		if n {
			c.speaker = SpeakerBoost
			c.score += SpeakerBoost
		}
	}
}
