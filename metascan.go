package mneme

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The checks of a record's meta read the compacted JSON once, byte by
// byte, instead of decoding it into maps and tokens (three decodes a
// record were a tenth of an ops batch's time). They agree with what
// json.Unmarshal into a map would say, which FuzzValidateMeta holds.

// metaObject reports whether c, valid compact JSON, is an object whose
// numbers all fit a float64 (json.Unmarshal refuses one that does not).
func metaObject(c []byte) bool {
	if len(c) == 0 || c[0] != '{' {
		return false
	}
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case b == '"':
			i = stringEnd(c, i)
		case b == '-' || (b >= '0' && b <= '9'):
			j := i
			for j < len(c) && isNumberByte(c[j]) {
				j++
			}
			if _, err := strconv.ParseFloat(string(c[i:j]), 64); err != nil {
				return false
			}
			i = j - 1
		}
	}
	return true
}

func isNumberByte(b byte) bool {
	return (b >= '0' && b <= '9') || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
}

// stringEnd is the index of the quote closing the string that opens at i.
func stringEnd(c []byte, i int) int {
	for i++; i < len(c); i++ {
		switch c[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(c)
}

// duplicateKey returns a top-level key the object c (valid compact JSON)
// gives twice, as decoded: stores would disagree on which value a filter
// sees.
func duplicateKey(c []byte) (string, bool) {
	seen := map[string]bool{}
	depth := 0
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			end := stringEnd(c, i)
			if depth == 1 && end+1 < len(c) && c[end+1] == ':' {
				k := decodeKey(c[i : end+1])
				if seen[k] {
					return k, true
				}
				seen[k] = true
			}
			i = end
		}
	}
	return "", false
}

// decodeKey is the string the JSON string literal q decodes to.
func decodeKey(q []byte) string {
	raw := q[1 : len(q)-1]
	for _, b := range raw {
		if b == '\\' {
			var s string
			_ = json.Unmarshal(q, &s)
			return s
		}
	}
	if !utf8.Valid(raw) { // decoding replaces invalid bytes with U+FFFD
		var s string
		_ = json.Unmarshal(q, &s)
		return s
	}
	return string(raw)
}
