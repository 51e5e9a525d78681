package rank

import "strings"

// clues say which of Named's regular expressions can match a text: each
// needs a word or a digit a byte scan finds far faster than the
// expression runs. The date boost reads every candidate's text (hundreds a
// recall when a question names a time), and most texts hold a clue for
// one expression at most.
type clues struct {
	rng, digit, yesterday, today, weekday, ago, unit, month, dash bool
}

// everything is the clues of a text with a byte above ASCII: under (?i)
// such a byte may fold into a letter of any word ("ſ" into "s").
var everything = clues{true, true, true, true, true, true, true, true, true}

// cluesFor is cluesOf; FuzzClues replaces it with everything to check that
// no clue turns away a text an expression matches.
var cluesFor = cluesOf

func cluesOf(text string) clues {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return everything
		}
	}
	low := strings.ToLower(text)
	has := strings.Contains
	return clues{
		rng:       has(low, "between") || has(low, "from"),
		digit:     strings.ContainsAny(low, "0123456789"),
		yesterday: has(low, "yesterday") || has(low, "last night"),
		today:     has(low, "today") || has(low, "tonight") || has(low, "this "),
		weekday:   has(low, "day"), // every weekday's name ends so
		ago:       has(low, "ago"),
		unit:      has(low, "week") || has(low, "month") || has(low, "year"),
		month:     hasMonth(low),
		dash:      strings.IndexByte(text, '-') >= 0,
	}
}

func hasMonth(low string) bool {
	for _, m := range [...]string{"january", "february", "march", "april", "may", "june", "july",
		"august", "september", "october", "november", "december"} {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// hasFourDigits reports whether text has a word of exactly four ASCII
// digits (\b and \d are ASCII in Go's expressions): every form NamedTime
// reads has a year, or an ISO date's, as such a word.
func hasFourDigits(text string) bool {
	run, digits := 0, true
	for i := 0; i <= len(text); i++ {
		c := byte(' ')
		if i < len(text) {
			c = text[i]
		}
		switch {
		case c >= '0' && c <= '9':
			run++
		case c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z':
			run, digits = run+1, false
		default:
			if run == 4 && digits {
				return true
			}
			run, digits = 0, true
		}
	}
	return false
}
