package ops

import (
	"fmt"
	"io"
	"strings"
)

// PrintTimeline writes p for people: each session as a heading, then what
// happened in it, in order, one line an entry.
func PrintTimeline(w io.Writer, p Page) {
	if len(p.Entries) == 0 {
		fmt.Fprintln(w, "no entries")
		return
	}
	sessions, by := []string{}, map[string][]Item{}
	for _, it := range p.Entries {
		if _, ok := by[it.Session]; !ok {
			sessions = append(sessions, it.Session)
		}
		by[it.Session] = append(by[it.Session], it)
	}
	for i, s := range sessions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "session %s\n", s)
		for _, it := range by[s] {
			fmt.Fprintf(w, "  %s  %-10s %s\n", it.At.UTC().Format("2006-01-02 15:04:05"), it.Kind, line(it.Entry))
		}
	}
	if p.Truncated {
		fmt.Fprintln(w, "(more entries: raise --limit or narrow the filters)")
	}
}

// line is one entry's summary on one line.
func line(e Entry) string {
	var s string
	switch e.Kind {
	case KindSession:
		s = e.Host
		if e.Repo != "" {
			s += " in " + e.Repo
		}
		if e.Ended != nil {
			s += ", ended " + e.Ended.UTC().Format("15:04:05")
		}
		if e.Summary != "" {
			s += ": " + e.Summary
		}
	case KindToolCall:
		s = strings.TrimSuffix(text(&Entry{Kind: e.Kind, Tool: e.Tool, Input: e.Input, Outcome: e.Outcome}), suffix("", ""))
		if e.DurationMS > 0 {
			s += fmt.Sprintf(" (%d ms)", e.DurationMS)
		}
		if e.Success != nil && !*e.Success {
			s += " [failed]"
		}
	default:
		c := e
		c.Session, c.Run = "", ""
		s = strings.TrimSuffix(text(&c), suffix("", ""))
	}
	if e.Run != "" && e.Kind != KindRun {
		s += "  (run " + e.Run + ")"
	}
	if e.Kind == KindRun {
		s = e.Run + ": " + strings.TrimPrefix(s, "Run ")
	}
	return clip(strings.Join(strings.Fields(s), " "), 160)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
