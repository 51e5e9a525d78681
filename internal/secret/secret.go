// Package secret finds credentials in text an agent is about to remember, so
// the write can be refused or the values masked.
//
// Detection is heuristic and tuned to keep ordinary notes quiet: vendor
// tokens are matched by fixed prefix and shape, while key/value assignments
// (password=…, "api_key": "…", <password>…</password>) are matched by the
// key name's last word and then filtered for placeholders, variable
// references, code and prose. Every detector starts from a cheap
// strings.Index anchor; there are no regexps.
//
// Decisions worth knowing:
//   - Placeholders are not secrets: <password>, ${PW}, $PW, ***, xxx, ...,
//     your-…, …-here, anything containing "example", and "changeme" (an
//     instruction, not a secret worth refusing a write for). AWS's documented
//     AKIAIOSFODNN7EXAMPLE still counts: vendor tokens get no word rules.
//   - "pass" and "secret" as values are flagged (real weak passwords), so
//     postgres://user:pass@host is; user:password@host is a placeholder.
//   - A password of any length counts; generic secrets need 8+ bytes, no
//     spaces, not a number, and (unquoted) a digit or 20+ mixed-case bytes.
//   - A bare PWD/OLDPWD is the shell's working directory: only a quoted,
//     non-path value counts. A bare "pass" key is never one (PASS: TestX).
//   - Values are masked whole: overlapping findings merge, and the more
//     specific kind names the union.
package secret

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Finding is one credential found in a text.
type Finding struct {
	Kind       string // stable short id: "private-key", "aws-access-key-id", "aws-secret-access-key", "github-token", "slack-token", "openai-key", "anthropic-key", "google-api-key", "stripe-key", "jwt", "password-assignment", "generic-secret-assignment", "connection-string-password", "url-token"
	Start, End int    // byte offsets of the secret VALUE (what Redact masks), not of the surrounding key name
	Line       int    // 1-based line of Start
}

// kinds lists every Kind with its rank (a higher rank names a merged range),
// singular and plural description.
var kinds = map[string]struct {
	rank         int
	one, several string
}{
	"private-key":                {9, "a private key", "private keys"},
	"aws-access-key-id":          {8, "an AWS access key id", "AWS access key ids"},
	"aws-secret-access-key":      {8, "an AWS secret access key", "AWS secret access keys"},
	"github-token":               {8, "a GitHub token", "GitHub tokens"},
	"slack-token":                {8, "a Slack token", "Slack tokens"},
	"openai-key":                 {8, "an OpenAI API key", "OpenAI API keys"},
	"anthropic-key":              {8, "an Anthropic API key", "Anthropic API keys"},
	"google-api-key":             {8, "a Google API key", "Google API keys"},
	"stripe-key":                 {8, "a Stripe key", "Stripe keys"},
	"jwt":                        {7, "a JWT", "JWTs"},
	"connection-string-password": {6, "a password in a connection string", "passwords in connection strings"},
	"url-token":                  {6, "a token in a URL", "tokens in URLs"},
	"password-assignment":        {5, "a password assignment", "password assignments"},
	"generic-secret-assignment":  {4, "a secret assignment", "secret assignments"},
}

// Scan returns the findings in text, ordered by Start, non-overlapping.
func Scan(text string) []Finding {
	s := &scanner{t: text}
	s.scan()
	return s.finish()
}

// ScanNamed returns the findings in value, a string stored under the name
// name (a JSON object's key such as "db_password"): what Scan finds, and
// the whole value when the name names a secret and the value is not a
// placeholder, as `"name": "value"` in a text would be.
func ScanNamed(name, value string) []Finding {
	s := &scanner{t: value}
	s.scan()
	if kind, flags := keyName(name, ""); kind != "" {
		s.value(kind, value, 0, flags, true, false)
	}
	return s.finish()
}

// SecretName reports whether a value stored under name counts whole in
// ScanNamed: the name's last word is a secret's (password, api_key, token).
func SecretName(name string) bool {
	kind, _ := keyName(name, "")
	return kind != ""
}

func (s *scanner) scan() {
	s.privateKeys()
	s.tokens()
	s.connStrings()
	s.assignments()
}

// Redact returns text with every finding's value replaced by
// "[REDACTED:<kind>]" and the findings.
func Redact(text string) (string, []Finding) {
	fs := Scan(text)
	return Mask(text, fs), fs
}

// Mask returns text with the values of fs, findings of Scan or ScanNamed
// in text, replaced by "[REDACTED:<kind>]".
func Mask(text string, fs []Finding) string {
	if len(fs) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	prev := 0
	for _, f := range fs {
		b.WriteString(text[prev:f.Start])
		b.WriteString("[REDACTED:" + f.Kind + "]")
		prev = f.End
	}
	b.WriteString(text[prev:])
	return b.String()
}

type scanner struct {
	t     string
	found []Finding
}

func (s *scanner) add(kind string, start, end int) {
	if start < end {
		s.found = append(s.found, Finding{Kind: kind, Start: start, End: end})
	}
}

// finish sorts the candidates and merges overlaps. An overlap is usually one
// secret seen twice (api_key = "AIza…"), so the union is masked and the more
// specific kind names it; a union also never leaves part of a value visible.
func (s *scanner) finish() []Finding {
	fs := s.found
	if len(fs) == 0 {
		return nil
	}
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.Start >= last.End {
			out = append(out, f)
			continue
		}
		last.End = max(last.End, f.End)
		if kinds[f.Kind].rank > kinds[last.Kind].rank {
			last.Kind = f.Kind
		}
	}
	line, pos := 1, 0
	for i := range out {
		line += strings.Count(s.t[pos:out[i].Start], "\n")
		pos = out[i].Start
		out[i].Line = line
	}
	return out
}

// each calls fn for every occurrence of sub in t. fn returns where to resume
// (values not past the match resume one byte after it), which lets a detector
// skip over what it consumed.
func each(t, sub string, fn func(i int) int) {
	for i := 0; i < len(t); {
		j := strings.Index(t[i:], sub)
		if j < 0 {
			return
		}
		i += j
		i = max(fn(i), i+1)
	}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isUpper(c byte) bool  { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool  { return 'a' <= c && c <= 'z' }
func isLetter(c byte) bool { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }

// isB64URL covers base64url and most vendor token alphabets.
func isB64URL(c byte) bool { return isAlnum(c) || c == '-' || c == '_' }

// isB64Std is standard base64 without padding.
func isB64Std(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

func runEnd(t string, i int, ok func(byte) bool) int {
	for i < len(t) && ok(t[i]) {
		i++
	}
	return i
}

func all(v string, ok func(byte) bool) bool { return runEnd(v, 0, ok) == len(v) }

func has(v string, ok func(byte) bool) bool {
	for i := 0; i < len(v); i++ {
		if ok(v[i]) {
			return true
		}
	}
	return false
}

// boundary reports whether a token may start at i: not glued to a word.
func boundary(t string, i int) bool { return i == 0 || !isAlnum(t[i-1]) }

// lineEnd is the index of the newline ending the line holding i (or len).
func lineEnd(t string, i int) int {
	if k := strings.IndexByte(t[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(t)
}

// Describe gives a one-line human summary such as "an AWS access key id on
// line 3 and a password assignment on line 7"; repeated kinds are grouped
// ("2 GitHub tokens on lines 4 and 9").
func Describe(fs []Finding) string { return describe(fs, true) }

// DescribeKinds is Describe without the lines, for a one-line value: "a
// password in a connection string", "2 GitHub tokens".
func DescribeKinds(fs []Finding) string { return describe(fs, false) }

func describe(fs []Finding, withLines bool) string {
	if len(fs) == 0 {
		return "no secrets"
	}
	var order []string
	lines := map[string][]int{}
	count := map[string]int{}
	for _, f := range fs {
		ls := lines[f.Kind]
		if count[f.Kind] == 0 {
			order = append(order, f.Kind)
		}
		if count[f.Kind]++; len(ls) == 0 || ls[len(ls)-1] != f.Line {
			lines[f.Kind] = append(ls, f.Line)
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		d, ok := kinds[k]
		if !ok {
			d.one, d.several = "a "+k, k+" findings"
		}
		ls := make([]string, 0, len(lines[k]))
		for _, n := range lines[k][:min(len(lines[k]), 5)] {
			ls = append(ls, strconv.Itoa(n))
		}
		if len(lines[k]) > 5 {
			ls = append(ls, "more")
		}
		where := " on line " + ls[0]
		switch {
		case !withLines:
			where = ""
		case len(ls) > 1:
			where = " on lines " + join(ls)
		}
		if count[k] == 1 {
			parts[i] = d.one + where
		} else {
			parts[i] = strconv.Itoa(count[k]) + " " + d.several + where
		}
	}
	return join(parts)
}

// join lists items as "a", "a and b" or "a, b and c".
func join(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
