package postgres

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
)

// countSQL counts the records passing f (cond: its conditions, args in a)
// up to exactBelow+1, to choose between scoring them one by one and
// walking the indexes. A filter with time bounds (since, until, a
// recall's search of the time a question names) first counts its span on
// the event index alone, which reads no record: a span of clearly more
// than exactBelow records (a month of a home of 100,000: 8,400) is then
// walked without checking up to exactBelow+1 of its records one by one,
// scattered across the table (3,000 pages), as a meta filter estimated
// clearly over is (see plan), when the time is all the filter narrows.
func countSQL(f mneme.Filter, cond string, a *args) string {
	count := fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM records r WHERE %s LIMIT %d) x", cond, exactBelow+1)
	var span []string
	if f.Since != nil {
		span = append(span, "r.event_at >= "+a.add(f.Since.UnixNano()))
	}
	if f.Until != nil {
		span = append(span, "r.event_at <= "+a.add(f.Until.UnixNano()))
	}
	if len(span) == 0 {
		return count
	}
	// The span counted up to limit: when the time is all the filter
	// narrows, a span over limit is clearly too many; else the span says
	// little of how many pass the rest (tags, a project).
	limit, over := exactBelow, "false"
	rest := f
	rest.Since, rest.Until = nil, nil
	if !narrow(rest) {
		limit = exactBelow * 3 / 2 // the margin a meta filter's estimate has
		over = fmt.Sprintf("s.n > %d", limit)
	}
	// The ELSE branch runs only when taken (an init plan runs on first
	// use). A span few enough to score one by one (a day: 270) is not
	// counted again either: fewer pass the whole filter, and plan makes
	// the same choice for them.
	return fmt.Sprintf(`SELECT CASE WHEN %s OR (s.n <= %d AND s.n <= %g * (SELECT greatest(sum(n), 1) FROM lex_stats)) THEN s.n ELSE (%s) END
		FROM (SELECT count(*) AS n FROM (SELECT 1 FROM records r WHERE %s LIMIT %d) y) s`,
		over, exactBelow, exactShare, count, strings.Join(span, " AND "), limit+1)
}
