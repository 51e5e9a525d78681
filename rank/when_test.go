package rank

import (
	"testing"
	"time"
)

// TestNamed: the span a question names is what it named: a day for a day
// ("on 2026-11-18", "yesterday", "last Tuesday"), a month for a month ("in
// May"), the week around the day "two weeks ago" means; relative phrasings
// resolve against now.
func TestNamed(t *testing.T) {
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC) // a Friday
	day := func(m time.Month, d int) Span {
		from := time.Date(2026, m, d, 0, 0, 0, 0, time.UTC)
		return Span{from, from.AddDate(0, 0, 1)}
	}
	span := func(y int, m time.Month, d, days int) Span {
		from := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return Span{from, from.AddDate(0, 0, days)}
	}
	for _, tc := range []struct {
		query string
		want  Span // zero: no time named
	}{
		{"what happened on 2026-11-18", day(11, 18)},
		{"what happened on 18 November, 2026?", day(11, 18)},
		{"the deploy on November 18th 2026", day(11, 18)},
		{"what happened on 18 November", day(11, 18)},
		{"what did we decide on the 3rd of November", day(11, 3)},
		{"what broke yesterday", day(11, 19)},
		{"what did I eat last night", day(11, 19)},
		{"what did we ship today", day(11, 20)},
		{"what did we discuss last Tuesday", day(11, 17)},
		{"the call on Friday", day(11, 13)},
		{"what happened two weeks ago", span(2026, 11, 3, 7)},
		{"what happened 3 days ago", day(11, 17)},
		{"what happened a few days ago", day(11, 17)},
		{"what happened last week", span(2026, 11, 9, 7)},
		{"what happened this week", span(2026, 11, 16, 7)},
		{"what did we do last weekend", span(2026, 11, 14, 2)},
		{"what happened last month", span(2026, 10, 1, 31)},
		{"where did we go in May", span(2026, 5, 1, 31)},
		{"what happened in December", span(2025, 12, 1, 31)}, // not yet this year: last year's
		{"what happened in July 2023", span(2023, 7, 1, 31)},
		{"trips in 2024", span(2024, 1, 1, 366)},
		{"Where was John between August 11 and August 15 2023?", span(2023, 8, 11, 5)},
		{"what happened from 3 November to 5 November", span(2026, 11, 3, 3)},
		{"we may ship 25 builds", Span{}},
		{"when did Maria adopt a dog?", Span{}},
		{"port 8080 and 3000 requests", Span{}},
	} {
		got, ok := Named(tc.query, now)
		if ok != !tc.want.From.IsZero() || got != tc.want {
			t.Errorf("%q: %v to %v (%v), want %v to %v", tc.query, got.From, got.To, ok, tc.want.From, tc.want.To)
		}
	}
}

// FuzzNamed: any text gives a span that is not empty, or none.
func FuzzNamed(f *testing.F) {
	for _, s := range []string{"on 2026-11-18", "last Tuesday", "two weeks ago", "in May", "31 June", "0 days ago", "999 years ago"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := Named(s, now); ok && !got.From.Before(got.To) {
			t.Fatalf("%q: empty span %v", s, got)
		}
	})
}

// TestMayNameTime: the cheap check Named makes first passes every text
// that names a time (so Named reads the same as without it) and turns
// away plain questions.
func TestMayNameTime(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"what did Nate do on 25 May, 2022?", true},
		{"what happened on 2026-11-18", true},
		{"what happened last Tuesday", true},
		{"two weeks ago", true},
		{"what did we decide in MAY", true},
		{"this evening", true},
		{"in 1999", true},
		{"the year 2023年", true}, // other bytes: Named decides
		{"how do we warm up the cache before deploys", false},
		{"what pet does Nate have?", false},
		{"order 20231 shipped", false}, // five digits: no year
		{"", false},
	} {
		if got := mayNameTime(tc.text); got != tc.want {
			t.Errorf("mayNameTime(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// FuzzNamedGate: whatever Named reads a time in, mayNameTime lets through
// (checked against Named's readers without the gate).
func FuzzNamedGate(f *testing.F) {
	for _, s := range []string{"on 25 May, 2022", "2026-11-18", "last night", "yesterday", "three days ago", "between 3 May and 9 May",
		"this weekend", "previous year", "in_2023", "Yeſterday", "Sunday", "tonight", "x2023", "July 7th"} {
		f.Add(s)
	}
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		_, between := between(text, now)
		_, namedOne := namedOne(text, now)
		if (between || namedOne) && !mayNameTime(text) {
			t.Fatalf("Named reads a time in %q, but mayNameTime turns it away", text)
		}
	})
}

// FuzzClues: Named reads the same time in a text with its clues as with
// every expression tried.
func FuzzClues(f *testing.F) {
	for _, s := range []string{"on 25 May, 2022", "2026-11-18", "last night", "yesterday", "three days ago", "between 3 May and 9 May",
		"this weekend", "previous year", "in May", "Yeſterday", "last Sunday", "tonight", "July 7th", "this morning",
		"from 3 November to 5 November", "a couple of weeks ago", "the 3rd of November", "early June"} {
		f.Add(s)
	}
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		got, gotOK := Named(text, now)
		cluesFor = func(string) clues { return everything }
		defer func() { cluesFor = cluesOf }()
		want, wantOK := Named(text, now)
		if got != want || gotOK != wantOK {
			t.Fatalf("Named(%q) = %v %v with clues, %v %v without", text, got, gotOK, want, wantOK)
		}
	})
}

// FuzzFourDigits: whatever NamedTime reads a date in has a word of four
// digits.
func FuzzFourDigits(f *testing.F) {
	for _, s := range []string{"on 25 May, 2022", "2026-11-18", "x2023", "in_2023", "12345", "(2023)", "July 7, 2023", "2023a", "a 1999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, _, ok := namedTime(text, everything); ok && !hasFourDigits(text) {
			t.Fatalf("NamedTime reads a date in %q, which has no word of four digits", text)
		}
	})
}
