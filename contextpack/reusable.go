package contextpack

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// The reusable lane (issue 27, 5): promoted team knowledge, the validated
// and published records that answer the query, in a block of their own
// with a share of the budget of their own, so it neither competes with
// documents and turns for the package's slots nor has to be asked for in
// a request of its own.

// LaneReusable marks the reusable block's group, items and drops.
const LaneReusable = "reusable"

// MaxReusable bounds the reusable records one package asks for.
const MaxReusable = 50

// ReusableShare is the share of the budget the reusable block may take;
// what it leaves goes to the query's own hits.
const ReusableShare = 0.25

// reusableHeader heads the reusable block.
const reusableHeader = "## reusable: validated and published memories"

var reusableStatuses = []mneme.Status{mneme.Validated, mneme.Published}

// CheckReusable refuses a number of reusable records out of range.
func CheckReusable(n int) error {
	if n < 0 || n > MaxReusable {
		return mneme.Invalid("reusable %d is out of range: use 0 to %d validated or published memories ({{reusable}})", n, MaxReusable)
	}
	return nil
}

func reusableShareOf(n int) float64 {
	if n == 0 {
		return 0
	}
	return ReusableShare
}

// reusableHits recalls, for q, up to n validated or published records:
// q's filters, but those statuses, and no expansion (every record of the
// lane is one of them).
func reusableHits(ctx context.Context, eng *mneme.Engine, q mneme.Query, n int) ([]mneme.Hit, error) {
	q.Filter.Statuses, q.K, q.Expand, q.Report = reusableStatuses, n, 0, false
	res, err := eng.Recall(ctx, q)
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
}

// groupHeader is the header of the group whose first and last candidates
// are given: the reusable block's, or the record's (header).
func groupHeader(first, last *candidate) string {
	if first.lane == LaneReusable {
		return reusableHeader
	}
	return header(first.hit.Record, last.hit.Record)
}
