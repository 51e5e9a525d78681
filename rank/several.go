package rank

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// howManyRe matches a question that counts: its answer gathers turns.
var howManyRe = regexp.MustCompile(`(?i)\bhow (many|often)\b`)

// notPlural are words in s that name no several things.
var notPlural = wordSet(`is was has does his this its as us always perhaps yes whereas plus thus lens news series
	species status bus gas physics`)

// AsksSeveral reports whether a question asks for several things ("what
// activities does Melanie do", "which books", "how many times"): its
// answer is gathered from many places, not told once. A plural noun
// (a word in s, not ss, us or is) among the two words after its opening
// "what" or "which", or "how many" or "how often", says so.
func AsksSeveral(query string) bool {
	if howManyRe.MatchString(query) {
		return true
	}
	w := textnorm.Words(query)
	for i := 0; i < len(w) && i < 4; i++ {
		if w[i] != "what" && w[i] != "which" {
			continue
		}
		for _, y := range w[i+1 : min(len(w), i+3)] {
			if len(y) > 3 && strings.HasSuffix(y, "s") && !strings.HasSuffix(y, "ss") && !strings.HasSuffix(y, "us") &&
				!strings.HasSuffix(y, "is") && !notPlural[y] {
				return true
			}
		}
		return false
	}
	return false
}
