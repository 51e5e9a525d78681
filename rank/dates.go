package rank

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

const monthNames = `(january|february|march|april|may|june|july|august|september|october|november|december)`

var (
	dayMonthYear = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)? ` + monthNames + `,? (\d{4})\b`)
	monthDayYear = regexp.MustCompile(`(?i)\b` + monthNames + ` (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b`)
	isoDay       = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	monthYear    = regexp.MustCompile(`(?i)\b` + monthNames + `,? (\d{4})\b`)
	yearOnly     = regexp.MustCompile(`\b((?:19|20)\d\d)\b`)
)

// NamedTime finds the first explicit date in a query: a day (7 July 2023,
// July 7, 2023, 2023-07-07), else a month (July 2023), else a year (2023),
// as the half-open range [from, to) in UTC.
func NamedTime(text string) (from, to time.Time, ok bool) {
	if !hasFourDigits(text) {
		return from, to, false
	}
	return namedTime(text, cluesFor(text))
}

// namedTimeClued is NamedTime given text's clues (Named has them).
func namedTimeClued(text string, cl clues) (from, to time.Time, ok bool) {
	if !hasFourDigits(text) {
		return from, to, false // every form has a year: most texts are spared the expressions
	}
	return namedTime(text, cl)
}

// namedTime is NamedTime without its cheap check; an expression whose
// clue (a month's name, a dash) text lacks is not run. The date boost
// reads every candidate's text, and record numbers of four digits pass
// the cheap check.
func namedTime(text string, cl clues) (from, to time.Time, ok bool) {
	date := func(y, m, d string) (time.Time, bool) {
		year, _ := strconv.Atoi(y)
		day, _ := strconv.Atoi(d)
		month, err := strconv.Atoi(m)
		if err != nil {
			month = strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(m)[:3])/3 + 1
		}
		t := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
		return t, month >= 1 && month <= 12 && t.Day() == day // no 31 June
	}
	var t time.Time
	if m := find(cl.month, dayMonthYear, text); m != nil {
		t, ok = date(m[3], m[2], m[1])
	} else if m := find(cl.month, monthDayYear, text); m != nil {
		t, ok = date(m[3], m[1], m[2])
	} else if m := find(cl.dash, isoDay, text); m != nil {
		t, ok = date(m[1], m[2], m[3])
	}
	if ok {
		return t, t.AddDate(0, 0, 1), true
	}
	if m := find(cl.month, monthYear, text); m != nil {
		t, _ = date(m[2], m[1], "1")
		return t, t.AddDate(0, 1, 0), true
	}
	if m := yearOnly.FindStringSubmatch(text); m != nil {
		t, _ = date(m[1], "1", "1")
		return t, t.AddDate(1, 0, 0), true
	}
	return from, to, false
}
