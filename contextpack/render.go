package contextpack

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/relpath"
)

// groupKey is the group a record belongs to: its document, else its
// session, else its project.
func groupKey(r *mneme.Record) string {
	switch {
	case r.Source != nil && r.Source.Parent != "":
		return "doc\x00" + r.Source.Parent
	case r.Source != nil && r.Source.URI != "":
		return "uri\x00" + r.Project + "\x00" + r.Source.URI
	case r.SessionID != "":
		return "session\x00" + r.Project + "\x00" + r.SessionID
	}
	return "project\x00" + r.Project
}

func source(r *mneme.Record) string {
	if r.Source == nil {
		return ""
	}
	return relpath.Display(r.Source.URI)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

// header is a group's header line: source, session and date (first and
// last, or one date), from its first and last record; project when there
// is neither source nor session.
func header(first, last *mneme.Record) string {
	var parts []string
	if s := source(first); s != "" {
		parts = append(parts, "source "+s)
	}
	if first.SessionID != "" {
		parts = append(parts, "session "+first.SessionID)
	}
	if len(parts) == 0 {
		parts = append(parts, "project "+first.Project)
	}
	return "## " + strings.Join(append(parts, dates(first, last)), " · ")
}

// dates is the day of first, or "first – last" when they differ.
func dates(first, last *mneme.Record) string {
	date := day(first.EventTime())
	if d := day(last.EventTime()); d != date {
		date += " – " + d
	}
	return date
}

// inOrder orders a group's records by position in their document, then
// by time.
func inOrder(a, b *candidate) int {
	ra, rb := a.hit.Record, b.hit.Record
	if ra.Source != nil && rb.Source != nil {
		if c := cmp.Compare(ra.Source.Chunk, rb.Source.Chunk); c != 0 {
			return c
		}
		if c := cmp.Compare(ra.Source.LineStart, rb.Source.LineStart); c != 0 {
			return c
		}
	}
	if c := ra.EventTime().Compare(rb.EventTime()); c != 0 {
		return c
	}
	return cmp.Compare(ra.ID, rb.ID) // ids are time-ordered (UUIDv7)
}

// render groups the kept candidates, orders the groups by time (their
// first record's), numbers the memories in reading order and writes the
// text.
func (pkg *Package) render(kept []*candidate) {
	byKey := map[string][]*candidate{}
	var keys []string
	for _, c := range kept {
		if byKey[c.group] == nil {
			keys = append(keys, c.group)
		}
		byKey[c.group] = append(byKey[c.group], c)
	}
	for _, k := range keys {
		slices.SortStableFunc(byKey[k], inOrder)
	}
	slices.SortStableFunc(keys, func(a, b string) int { // the reusable block first
		return cmp.Or(cmp.Compare(boolInt(a != LaneReusable), boolInt(b != LaneReusable)), inOrder(byKey[a][0], byKey[b][0]))
	})
	pkg.Groups, pkg.Citations = make([]Group, 0, len(keys)), make([]Citation, 0, len(kept))
	var b strings.Builder
	n := 0
	for _, k := range keys {
		cs := byKey[k]
		first, last := cs[0].hit.Record, cs[len(cs)-1].hit.Record
		g := Group{Header: groupHeader(cs[0], cs[len(cs)-1]), Source: source(first), Session: first.SessionID, Project: first.Project,
			Date: dates(first, last), Lane: cs[0].lane}
		if g.Lane != "" {
			g.Source, g.Session = "", ""
		}
		b.WriteString(g.Header + "\n")
		for _, c := range cs {
			n++
			r := c.hit.Record
			line := fmt.Sprintf("[%d] %s\n", n, c.line)
			b.WriteString(line)
			it := Item{N: n, ID: r.ID, Score: c.hit.Score, Rank: c.rank, Tokens: c.tokens, Spans: make([]Span, len(c.spans)), Lane: c.lane}
			if c.lane == LaneReusable {
				it.Status = r.Status
			}
			it.ExpandedFrom, it.Relation = c.hit.Expansion()
			it.Direction = c.hit.Direction()
			it.Whole = strings.TrimSpace(r.Text) == c.line
			sum := mneme.TextHash(r.Text)
			for i, s := range c.spans {
				it.Spans[i] = Span{ID: r.ID, Start: s.Start, End: s.End, SHA256: sum, Text: r.Text[s.Start:s.End]}
			}
			g.Items = append(g.Items, it)
			pkg.Citations = append(pkg.Citations, Citation{N: n, ID: r.ID, Source: source(r), Session: r.SessionID, Date: day(r.EventTime())})
		}
		pkg.Groups = append(pkg.Groups, g)
	}
	pkg.Text = strings.TrimSuffix(b.String(), "\n")
	pkg.TokensUsed = Tokens(pkg.Text)
}
