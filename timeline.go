package mneme

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// TimelineRow is a record as a timeline reads it: the columns that place
// it in time and in its session, its meta, and its text only when its
// kind asked for it (a timeline shows typed fields, not texts).
type TimelineRow struct {
	ID, Project, Kind string
	SessionID, RunID  string
	Superseded        bool
	At                time.Time // when it happened (EventTime)
	Text              string
	Meta              string // the record's meta JSON, "" for none
}

// TimelineStore is an optional store role: the rows f selects (f already
// scoped by the Engine), at most limit of them, the last written, in any
// order, with only the columns a row holds. textKinds are the kinds whose
// text a row carries. A store without it is read through List.
type TimelineStore interface {
	Timeline(ctx context.Context, f Filter, textKinds []string, limit int) ([]TimelineRow, error)
}

// MaxTimeline bounds one timeline read.
const MaxTimeline = 100000

// Timeline reads the rows f selects in the order they happened, at most
// limit of them (the last written; truncated says more passed), under the
// caller's scope exactly as List applies it (the project resolved, the
// clearance capped, the store's visibility conditions): operational
// memory's read path, which needs neither the whole record nor id order.
func (e *Engine) Timeline(ctx context.Context, f Filter, textKinds []string, limit int) ([]TimelineRow, bool, error) {
	if err := e.checkFilter(ctx, &f); err != nil {
		return nil, false, err
	}
	if limit <= 0 || limit > MaxTimeline {
		return nil, false, Invalid("limit %d is out of range: use 1 to %d", limit, MaxTimeline)
	}
	if ts, ok := e.store.(TimelineStore); ok {
		rows, err := ts.Timeline(ctx, f, textKinds, limit+1)
		if err != nil {
			return nil, false, err
		}
		rows, truncated := Latest(rows, limit)
		return rows, truncated, nil
	}
	var rows []TimelineRow // newest written first, as the role reads
	cursor := ""
	for len(rows) <= limit {
		recs, next, err := e.store.List(ctx, f, min(MaxK, limit+1-len(rows)), cursor)
		if err != nil {
			return nil, false, err
		}
		for _, r := range recs {
			rows = append(rows, RowOf(r, textKinds))
		}
		if next == "" {
			break
		}
		cursor = next
	}
	rows, truncated := Latest(rows, limit)
	return rows, truncated, nil
}

// Latest sorts rows by time (then id) and keeps the latest limit of them,
// saying whether any were dropped.
func Latest(rows []TimelineRow, limit int) ([]TimelineRow, bool) {
	less := func(a, b TimelineRow) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID)) }
	if !slices.IsSortedFunc(rows, less) {
		// Stores read the newest written first, which is mostly the
		// newest first: reversed, most reads need no sort.
		slices.Reverse(rows)
		if !slices.IsSortedFunc(rows, less) {
			slices.SortFunc(rows, less)
		}
	}
	if len(rows) > limit {
		return rows[len(rows)-limit:], true
	}
	return rows, false
}

// RowOf is r as a timeline row.
func RowOf(r *Record, textKinds []string) TimelineRow {
	row := TimelineRow{ID: r.ID, Project: r.Project, Kind: r.Kind, SessionID: r.SessionID, RunID: r.RunID,
		Superseded: r.Status == Superseded, At: r.EventTime(), Meta: string(r.Meta)}
	if slices.Contains(textKinds, r.Kind) {
		row.Text = r.Text
	}
	return row
}
