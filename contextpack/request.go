package contextpack

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// Budget bounds, in tokens (see Tokenizer).
const (
	MinBudget     = 50
	MaxBudget     = 100_000
	DefaultBudget = 1500
)

// Request is a context package request: a recall request (every filter
// and option; k is the recall's k, and the pool the package is built from
// is larger, see Pool) plus the token budget.
type Request struct {
	mneme.RecallRequest
	Budget Budget `json:"budget,omitempty"` // tokens; left out: DefaultBudget
	// Reusable adds up to this many validated or published memories in a
	// block of their own, with ReusableShare of the budget (0 to
	// MaxReusable; 0: no block).
	Reusable int `json:"reusable,omitempty"`
	// VerificationToken and AnswerScope ask for the answer verified for
	// the package (see VerifiedAnswer): both or neither.
	VerificationToken *string `json:"verification_token,omitempty"`
	AnswerScope       string  `json:"answer_scope,omitempty"`
}

// Budget is a token budget: given, it is MinBudget to MaxBudget; left out
// (0), DefaultBudget. An explicit 0 is refused, as every value out of range.
type Budget int

// UnmarshalJSON refuses numbers out of range, 0 included.
func (b *Budget) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var n int
	if err := json.Unmarshal(data, &n); err != nil {
		return mneme.Invalid("field \"budget\" must be a whole number of tokens from %d to %d", MinBudget, MaxBudget)
	}
	if err := CheckBudget(n); err != nil {
		return err
	}
	*b = Budget(n)
	return nil
}

// CheckBudget refuses a budget out of range.
func CheckBudget(n int) error {
	if n < MinBudget || n > MaxBudget {
		return mneme.Invalid("budget %d is out of range: use %d to %d tokens ({{budget}}; default %d)", n, MinBudget, MaxBudget, DefaultBudget)
	}
	return nil
}

// Pool is the number of recall hits a package of k is assembled from.
func Pool(k int) int { return min(mneme.MaxK, max(4*k, 50)) }

// Recall checks r and converts it into the recall that feeds the package,
// and its budget, at clearance: surfaces call it to reject bad input
// before they open a store.
func (r *Request) Recall(now time.Time, clearance mneme.Sensitivity) (mneme.Query, int, error) {
	budget := int(r.Budget)
	if budget == 0 {
		budget = DefaultBudget
	}
	if err := CheckBudget(budget); err != nil {
		return mneme.Query{}, 0, err
	}
	if strings.TrimSpace(r.Query) == "" {
		return mneme.Query{}, 0, mneme.Invalid("query is empty: give the question the package should answer")
	}
	if _, err := r.Proof(); err != nil {
		return mneme.Query{}, 0, err
	}
	if err := CheckReusable(r.Reusable); err != nil {
		return mneme.Query{}, 0, err
	}
	q, err := r.ToQuery(now, clearance)
	if err != nil {
		return q, 0, err
	}
	q.K = Pool(q.K)
	return q, budget, nil
}
