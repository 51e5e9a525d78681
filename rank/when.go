package rank

import (
	"regexp"

	"github.com/mneme-ai/mneme/internal/textnorm"
	"strconv"
	"strings"
	"time"
)

// Span is a half-open time range [From, To) in UTC.
type Span struct{ From, To time.Time }

// Overlaps reports whether s and o share an instant.
func (s Span) Overlaps(o Span) bool { return s.From.Before(o.To) && o.From.Before(s.To) }

// Contains reports whether t falls in s.
func (s Span) Contains(t time.Time) bool { return !t.Before(s.From) && t.Before(s.To) }

var (
	weekdays   = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	numberWord = `(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|couple of|few)`
	unitWord   = `(day|week|month|year)s?`

	yesterdayRe = regexp.MustCompile(`(?i)\b(yesterday|last night)\b`)
	todayRe     = regexp.MustCompile(`(?i)\b(today|tonight|this morning|this afternoon|this evening)\b`)
	lastDayRe   = regexp.MustCompile(`(?i)\b(last|past|this|on|on a) ` + weekdays + `\b`)
	agoRe       = regexp.MustCompile(`(?i)\b` + numberWord + ` ` + unitWord + ` ago\b`)
	lastUnitRe  = regexp.MustCompile(`(?i)\b(last|past|previous|this) (week|weekend|month|year)\b`)
	monthOnlyRe = regexp.MustCompile(`(?i)\b(?:in|of|during|since|early|late|mid) ` + monthNames + `\b`)
	dayMonthRe  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthNames + `\b`)
	monthDayRe  = regexp.MustCompile(`(?i)\b` + monthNames + ` (\d{1,2})(?:st|nd|rd|th)?\b`)
)

// Named finds the time a text names, as a span: an explicit date (a day,
// a month, a year; see NamedTime), else a time relative to now
// ("yesterday", "last Tuesday", "two weeks ago", "last month", "in May",
// "on 18 November"). The span is what was named: a day for a day, a week
// for "last week", and a week around the day "two weeks ago" means.
func Named(text string, now time.Time) (Span, bool) {
	if !mayNameTime(text) {
		return Span{}, false // most questions: a byte scan instead of a dozen regular expressions
	}
	cl := cluesFor(text)
	if cl.rng {
		if s, ok := between(text, now); ok {
			return s, true
		}
	}
	if from, to, ok := namedTimeClued(text, cl); ok {
		return Span{from, to}, true
	}
	return relative(text, cl, now.UTC())
}

var rangeRe = regexp.MustCompile(`(?i)\b(?:between|from) (.{3,40}?) (?:and|to|until|till) (.{3,40})`)

// between reads a range ("between August 11 and August 15 2023", "from 3
// May to 9 May"): from the first time to the end of the second, the first
// resolved as the latest such time up to the second (its year is often
// left out).
func between(text string, now time.Time) (Span, bool) {
	m := rangeRe.FindStringSubmatch(text)
	if m == nil {
		return Span{}, false
	}
	to, ok := namedOne(m[2], now)
	if !ok {
		return Span{}, false
	}
	from, ok := namedOne(m[1], to.To.Add(-time.Nanosecond))
	if !ok || !from.From.Before(to.To) {
		return Span{}, false
	}
	return Span{from.From, to.To}, true
}

// namedOne is Named without ranges.
func namedOne(text string, now time.Time) (Span, bool) {
	if from, to, ok := NamedTime(text); ok {
		return Span{from, to}, true
	}
	return relative(text, cluesFor(text), now.UTC())
}

// relative resolves the relative time expressions Named knows against
// now (the time of the question, or of the record that says it); cl are
// text's clues.
func relative(text string, cl clues, now time.Time) (Span, bool) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	day := func(t time.Time) Span { return Span{t, t.AddDate(0, 0, 1)} }
	switch {
	case cl.yesterday && yesterdayRe.MatchString(text):
		return day(today.AddDate(0, 0, -1)), true
	case cl.today && todayRe.MatchString(text):
		return day(today), true
	}
	if m := find(cl.weekday, lastDayRe, text); m != nil {
		want := weekdayIndex(m[2])
		back := (int(today.Weekday()) - want + 7) % 7
		if back == 0 && strings.ToLower(m[1]) != "this" {
			back = 7 // "last Tuesday" on a Tuesday: a week ago
		}
		return day(today.AddDate(0, 0, -back)), true
	}
	if m := find(cl.ago, agoRe, text); m != nil {
		n := count(m[1])
		switch strings.ToLower(m[2]) {
		case "day":
			return day(today.AddDate(0, 0, -n)), true
		case "week": // the week around that day
			at := today.AddDate(0, 0, -7*n)
			return Span{at.AddDate(0, 0, -3), at.AddDate(0, 0, 4)}, true
		case "month":
			at := today.AddDate(0, -n, 0)
			return Span{at.AddDate(0, 0, -15), at.AddDate(0, 0, 16)}, true
		case "year":
			y := time.Date(now.Year()-n, 1, 1, 0, 0, 0, 0, time.UTC)
			return Span{y, y.AddDate(1, 0, 0)}, true
		}
	}
	if m := find(cl.unit, lastUnitRe, text); m != nil {
		back := 1
		if strings.ToLower(m[1]) == "this" {
			back = 0
		}
		switch strings.ToLower(m[2]) {
		case "week":
			monday := today.AddDate(0, 0, -((int(today.Weekday())+6)%7)-7*back)
			return Span{monday, monday.AddDate(0, 0, 7)}, true
		case "weekend":
			sat := today.AddDate(0, 0, -((int(today.Weekday()) + 1) % 7)) // the last Saturday, today included
			if back == 1 && !sat.Before(today.AddDate(0, 0, -1)) {
				sat = sat.AddDate(0, 0, -7) // on a weekend, "last weekend" is the one before
			}
			return Span{sat, sat.AddDate(0, 0, 2)}, true
		case "month":
			first := time.Date(now.Year(), now.Month()-time.Month(back), 1, 0, 0, 0, 0, time.UTC)
			return Span{first, first.AddDate(0, 1, 0)}, true
		case "year":
			first := time.Date(now.Year()-back, 1, 1, 0, 0, 0, 0, time.UTC)
			return Span{first, first.AddDate(1, 0, 0)}, true
		}
	}
	if m := find(cl.digit && cl.month, dayMonthRe, text); m != nil {
		if s, ok := latestDay(m[2], m[1], today); ok {
			return s, true
		}
	}
	if m := find(cl.digit && cl.month, monthDayRe, text); m != nil {
		if s, ok := latestDay(m[1], m[2], today); ok {
			return s, true
		}
	}
	if m := find(cl.month, monthOnlyRe, text); m != nil {
		month := monthIndex(m[1])
		y := now.Year()
		if month > now.Month() {
			y-- // "in May" said in March: last year's
		}
		first := time.Date(y, month, 1, 0, 0, 0, 0, time.UTC)
		return Span{first, first.AddDate(0, 1, 0)}, true
	}
	return Span{}, false
}

// find is re.FindStringSubmatch(text) when clue says it can match.
func find(clue bool, re *regexp.Regexp, text string) []string {
	if !clue {
		return nil
	}
	return re.FindStringSubmatch(text)
}

// latestDay is the day of month m and day d on or before today (this
// year's, else last year's).
func latestDay(m, d string, today time.Time) (Span, bool) {
	n, _ := strconv.Atoi(d)
	month := monthIndex(m)
	for y := today.Year(); y >= today.Year()-1; y-- {
		t := time.Date(y, month, n, 0, 0, 0, 0, time.UTC)
		if t.Day() != n {
			return Span{}, false // no 31 June
		}
		if !t.After(today) {
			return Span{t, t.AddDate(0, 0, 1)}, true
		}
	}
	return Span{}, false
}

func monthIndex(m string) time.Month {
	return time.Month(strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(m)[:3])/3 + 1)
}

func weekdayIndex(d string) int {
	return strings.Index("sunmontuewedthufrisat", strings.ToLower(d)[:3]) / 3
}

// count reads a small number: digits, a word, or "a few" (3).
func count(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	switch strings.ToLower(s) {
	case "a", "an", "one":
		return 1
	case "a couple of", "couple of", "two":
		return 2
	case "a few", "few", "three":
		return 3
	}
	for i, w := range []string{"four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"} {
		if strings.EqualFold(s, w) {
			return i + 4
		}
	}
	return 1
}

// recencyRe matches a question that asks for the latest: it ranks by time.
var recencyRe = regexp.MustCompile(`(?i)\b(recent|recently|lately|latest|newest|most recent|last time|currently|these days|nowadays|up to date|current)\b`)

// AsksRecency reports whether a query asks for what is latest.
func AsksRecency(query string) bool { return recencyRe.MatchString(query) }

// whenRe matches a question that asks when: its answer is a time.
var whenRe = regexp.MustCompile(`(?i)^\s*(when\b|what (date|day|year|month|time)\b|which (date|day|year|month)\b|how long ago\b|in what (year|month)\b)`)

// AsksWhen reports whether a query asks when something happened.
func AsksWhen(query string) bool { return whenRe.MatchString(query) }

// timeWordRe matches a text that tells a time: a relative one (yesterday,
// two weeks ago, last Friday, this summer, next month) or a date.
var timeWordRe = regexp.MustCompile(`(?i)\b(yesterday|today|tonight|tomorrow|ago|last (night|week|weekend|month|year|summer|winter|spring|fall|autumn|` +
	weekdays[1:len(weekdays)-1] + `)|(this|next|past|coming) (week|weekend|month|year|summer|winter|spring|fall|autumn|morning|evening|` +
	weekdays[1:len(weekdays)-1] + `)|` + monthNames[1:len(monthNames)-1] + `|(19|20)\d\d|since|recently|the other day|earlier this)\b`)

// TellsTime reports whether a text tells a time. A word of timeWords
// first (cheap), then the regular expression on the text's start.
func TellsTime(text string) bool {
	if len(text) > mentionBytes {
		text = text[:mentionBytes]
	}
	return hasWord(text, timeWords) && timeWordRe.MatchString(text)
}

// timeWords are the words without one of which no text tells a time the
// way timeWordRe and Named read.
var timeWords = wordSet(`yesterday today tonight tomorrow ago last next this past coming since recently other earlier morning
	monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
	october november december summer winter spring fall autumn week weekend month year`)

// hasWord reports whether text has a word of set, or a number (a year, a
// date).
func hasWord(text string, set map[string]bool) bool {
	for _, w := range textnorm.Words(text) {
		if set[w] || len(w) == 4 && w[0] >= '1' && w[0] <= '2' && w[3] >= '0' && w[3] <= '9' {
			return true
		}
	}
	return false
}

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// mayNameTime is a necessary condition of Named, and cheap: every time it
// reads has a word of timeWords (a month, a weekday, "yesterday", "ago",
// "last", "this", a unit) or a number of four digits (a year), as a run of
// ASCII letters and digits, which is where the expressions' \b falls. A
// text with other bytes may fold into such a word under (?i), so it
// passes.
func mayNameTime(text string) bool {
	start := -1
	for i := 0; i <= len(text); i++ {
		var c byte = ' '
		if i < len(text) {
			c = text[i]
		}
		if c >= 0x80 {
			return true
		}
		if c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && timeToken(text[start:i]) {
			return true
		}
		start = -1
	}
	return false
}

// timeToken reports whether an ASCII word is one of timeWords or a number
// of four digits.
func timeToken(w string) bool {
	if len(w) == 4 && strings.Trim(w, "0123456789") == "" {
		return true
	}
	return len(w) <= len("wednesday") && timeWords[strings.ToLower(w)]
}
