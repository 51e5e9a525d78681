package ops

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// Query selects entries. Session and run intersect; Kinds is any of.
type Query struct {
	Project      string
	Session, Run string
	Kinds        []string
	Since, Until *time.Time // on when the entry happened, inclusive
	// History includes the earlier versions of sessions and runs that a
	// later entry superseded.
	History bool
	Limit   int // at most this many, the latest kept; 0: DefaultLimit
}

// DefaultLimit caps a read that names no limit.
const DefaultLimit = 10000

// Item is an entry as stored: its record's id and project, and whether a
// later version replaced it (a session's or run's history).
type Item struct {
	ID         string `json:"id"`
	Project    string `json:"project"`
	Superseded bool   `json:"superseded,omitempty"`
	Entry
}

// Page is a read's answer: the entries in the order they happened.
type Page struct {
	Entries   []Item `json:"entries"`
	Truncated bool   `json:"truncated"` // more entries passed the query than Limit
}

// Check validates q as Read would.
func (q *Query) Check() error {
	for _, k := range q.Kinds {
		if !slices.Contains(Kinds, k) {
			return mneme.Invalid("kind %q is not an ops kind: use %s", mneme.Clip(k), strings.Join(Kinds, ", "))
		}
	}
	if q.Limit < 0 || q.Limit > 100000 {
		return mneme.Invalid("limit %d is out of range: use 1 to 100000", q.Limit)
	}
	f := q.filter(time.Time{})
	return f.Check()
}

// filter is the record filter q reads through.
func (q *Query) filter(now time.Time) mneme.Filter {
	// No tag filter: the kinds and the meta's "ops" key (fromRecord) say
	// what is an entry, and a tag join would cost a read its index seek.
	f := mneme.Filter{Project: q.Project, SessionID: q.Session, RunID: q.Run,
		Since: q.Since, Until: q.Until, IncludeSuperseded: q.History, Now: now}
	kinds := q.Kinds
	if len(kinds) == 0 {
		kinds = Kinds
	}
	for _, k := range kinds {
		f.Kinds = append(f.Kinds, recordKind(k))
	}
	return f
}

// Read returns the entries q selects, oldest first (a session's timeline),
// the latest Limit of them, through the Engine's timeline read (the
// caller's scope applies; only the columns an entry needs are read).
func Read(ctx context.Context, eng *mneme.Engine, q Query) (Page, error) {
	if err := q.Check(); err != nil {
		return Page{}, err
	}
	f := q.filter(time.Time{})
	f.Clearance = mneme.ScopeFrom(ctx).Reads()
	rows, truncated, err := eng.Timeline(ctx, f, textKinds, cmp.Or(q.Limit, DefaultLimit))
	if err != nil {
		return Page{}, err
	}
	// Built in place: one slice of entries, one of their times, one
	// pair of success flags for the whole read.
	out := Page{Entries: make([]Item, len(rows)), Truncated: truncated}
	ats, bools := make([]time.Time, len(rows)), [2]bool{false, true}
	n := 0
	for i := range rows {
		if fromRow(&rows[i], &out.Entries[n], &ats[n], &bools) {
			n++
		}
	}
	out.Entries = out.Entries[:n]
	// Rows come by time; entries of the same instant go session first.
	if !slices.IsSortedFunc(out.Entries, byTime) {
		slices.SortStableFunc(out.Entries, byTime)
	}
	return out, nil
}

// byTime orders a timeline: by when, then the session before its runs
// before what happened in them, then by id.
func byTime(a, b Item) int {
	return cmp.Or(a.At.Compare(*b.At), rank(a.Kind)-rank(b.Kind), strings.Compare(a.ID, b.ID))
}

// rank orders entries that happened at the same instant: the session
// first, then its runs, then what happened in them.
func rank(kind string) int { return slices.Index(Kinds, kind) }
