package rank

import "time"

// Window is the time a question's window search covers (see WindowPool):
// the time it names (Named), widened as DateMatch widens it, and
// WindowAfterDays more, where turns tell of it after the fact ("yesterday",
// "last week"). ok is false when the query names no time, or when the
// profile has no date boost or no window search.
func (p *Profile) Window(query string, now time.Time) (Span, bool) {
	if p.WindowPool == 0 || p.DateBoost == 0 {
		return Span{}, false
	}
	span, ok := Named(query, now)
	if !ok {
		return Span{}, false
	}
	w := p.widen(span)
	w.To = w.To.Add(days(p.WindowAfterDays))
	return w, true
}

// widen is span with DateBeforeHours before it and DateAfterDays after:
// the event times DateMatch raises.
func (p *Profile) widen(span Span) Span {
	return Span{span.From.Add(-time.Duration(p.DateBeforeHours * float64(time.Hour))), span.To.Add(days(p.DateAfterDays))}
}

func days(n float64) time.Duration { return time.Duration(n * 24 * float64(time.Hour)) }
