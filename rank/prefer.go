package rank

import "regexp"

// adviceRe matches a request for advice or a recommendation: its answer
// should respect what the user said they like, need or avoid.
var adviceRe = regexp.MustCompile(`(?i)\b(recommend\w*|suggest\w*|advice|advise|tips?|ideas? (for|on)|should i|should we|what (would|could|can) i|where (can|could|should) i|help me (choose|pick|find|plan|decide)|any good|what to (eat|cook|buy|wear|read|watch|do|book|order|get))\b`)

// AsksAdvice reports whether a query asks for advice or a recommendation.
func AsksAdvice(query string) bool { return adviceRe.MatchString(query) }

// preferRe matches a first-person statement of a preference, a need or an
// aversion ("I'm vegetarian", "I prefer aisle seats", "my favourite is").
var preferRe = regexp.MustCompile(`(?i)\b(i|i'm|i am|i've|i'd|my|we|we're)\b[^.!?\n]{0,40}?\b(prefer\w*|love|like|enjoy|hate|dislike|can't stand|cannot stand|avoid|allergic|intolerant|vegetarian|vegan|gluten|favou?rite|fan of|rather|don't eat|do not eat|don't like|never eat|always)\b`)

// StatesPreference reports whether a text states a preference.
func StatesPreference(text string) bool {
	if len(text) > mentionBytes {
		text = text[:mentionBytes]
	}
	return hasWord(text, preferWords) && preferRe.MatchString(text)
}

// preferWords are the words without one of which preferRe cannot match.
var preferWords = wordSet(`prefer prefers preferred preference preferences love like enjoy hate dislike stand avoid allergic
	intolerant vegetarian vegan gluten favourite favorite fan rather eat always`)

// PreferMatch raises, for a question that asks for advice, the candidates
// that state a preference by PreferBoost: "can you suggest a restaurant?"
// is answered by the earlier "I'm vegetarian", whose words it shares none
// of and whose meaning it shares little.
func (p *Profile) PreferMatch(query string, cands []*Candidate) {
	if p.PreferBoost == 0 || !AsksAdvice(query) {
		return
	}
	raiseIf(cands, p.PreferBoost, StatesPreference, func(c *Candidate) *float64 { return &c.Prefer })
}

// UpdateMatch raises by UpdateBoost a candidate with evidence that is the
// newer of two that say much the same (terms overlap by UpdateOverlap at
// least): of two statements of one fact ("I live in Berlin", later "I live
// in Lisbon now"), the newer is the one that holds. Among the best
// updatePool candidates by score, for a question about the asker's own
// state ("where do I live?", "my current job") or the latest: a question
// about what someone did ("what did Maria paint?") wants the old as much.
func (p *Profile) UpdateMatch(query string, cands []*Candidate) {
	if p.UpdateBoost == 0 || !firstPersonRe.MatchString(query) && !AsksRecency(query) {
		return
	}
	top := make([]*Candidate, 0, updatePool)
	for _, c := range cands {
		if p.Evidence(c) {
			top = append(top, c)
		}
	}
	ByScore(top)
	top = top[:min(updatePool, len(top))]
	for _, c := range top {
		for _, o := range top {
			if o != c && o.Doc.Time.Before(c.Doc.Time) && jaccard(c.termSet(), o.termSet()) >= p.UpdateOverlap {
				c.Update = p.UpdateBoost
				c.Score += p.UpdateBoost
				break
			}
		}
	}
}

// firstPersonRe matches a question about the asker ("my", "I", "me").
var firstPersonRe = regexp.MustCompile(`(?i)\b(i|i'm|me|my|mine|myself|we|our|us)\b`)

// updatePool bounds the candidates UpdateMatch compares, pair by pair.
const updatePool = 20
