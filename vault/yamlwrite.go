package vault

import (
	"fmt"
	"strconv"
	"strings"
)

// fmWriter writes front matter in the subset parseFrontMatter reads.
type fmWriter struct{ b strings.Builder }

func (w *fmWriter) scalar(key, v string) {
	if v != "" {
		w.b.WriteString(key + ": " + quote(v) + "\n")
	}
}

// raw writes v as it is: a JSON value, which YAML reads as a flow value.
func (w *fmWriter) raw(key, v string) {
	if v != "" {
		w.b.WriteString(key + ": " + v + "\n")
	}
}

func (w *fmWriter) list(key string, items []string) {
	if len(items) == 0 {
		return
	}
	w.b.WriteString(key + ":\n")
	for _, it := range items {
		w.b.WriteString("  - " + quote(it) + "\n")
	}
}

func (w *fmWriter) mapping(key string, pairs []pair) {
	if len(pairs) == 0 {
		return
	}
	w.b.WriteString(key + ":\n")
	for _, p := range pairs {
		v := quote(p.Value)
		if _, err := strconv.Atoi(p.Value); err == nil && p.Value[0] != '+' && p.Value[0] != '0' {
			v = p.Value // a whole number, as YAML writes one
		}
		w.b.WriteString("  " + p.Key + ": " + v + "\n")
	}
}

// quote is v as a plain scalar when that reads back as the same string in
// any YAML reader, else double-quoted with escapes.
func quote(v string) string {
	if plainSafe(v) {
		return v
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// plainSafe: letters, digits and a few punctuation marks, starting with a
// letter or digit, not a word YAML reads as a boolean or null, not a
// number.
func plainSafe(v string) bool {
	if v == "" || strings.HasSuffix(v, " ") || strings.HasSuffix(v, ":") || strings.Contains(v, ": ") {
		return false
	}
	for i, c := range v {
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("_ ./@+-:", c)) {
			return false
		}
	}
	for _, w := range yamlWords {
		if len(v) <= 5 && strings.EqualFold(v, w) {
			return false
		}
	}
	return !numberLike(v)
}

// yamlWords are the words YAML reads as a boolean or null.
var yamlWords = []string{"true", "false", "yes", "no", "on", "off", "null", "y", "n"}

// numberLike: ParseFloat reads v. It is asked only when v could be one (its
// error allocates, and ids and times would ask it for every note).
func numberLike(v string) bool {
	for _, w := range []string{"inf", "infinity", "nan"} {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	if strings.Trim(v, "0123456789abcdefABCDEF.+-_xXpP") != "" {
		return false
	}
	_, err := strconv.ParseFloat(v, 64)
	return err == nil
}
