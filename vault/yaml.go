package vault

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The front matter is the YAML subset the writer emits, and what an editor
// such as Obsidian writes back: top-level "key: scalar", "key:" followed by
// an indented block list ("  - item") or a one-level map ("  sub: scalar"),
// flow lists of scalars ("[a, b]"), and plain, 'single' or "double" quoted
// scalars. Anything else (anchors, tags, multi-line scalars, nesting deeper
// than one level) is refused with its line, never guessed at.

// field is one top-level key of the front matter. Exactly one of Scalar,
// List or Map is meaningful, as Kind says.
type field struct {
	Key    string
	Kind   fieldKind
	Scalar string
	Raw    string // the value as written, for keys read as JSON (meta, promotions)
	List   []string
	Map    []pair
	Line   int // the file line of the key
}

type pair struct {
	Key, Value string
	Line       int
}

type fieldKind int

const (
	kindScalar fieldKind = iota
	kindNull
	kindList
	kindMap
)

// lineError is a front matter problem at a line of the file.
type lineError struct {
	Line int
	Msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func errAt(line int, format string, a ...any) error {
	return &lineError{Line: line, Msg: fmt.Sprintf(format, a...)}
}

// parseFrontMatter reads the lines of a front matter block (between the
// "---" lines, exclusive); first is the file line of lines[0].
func parseFrontMatter(lines []string, first int) ([]field, error) {
	var out []field
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		ln, n := lines[i], first+i
		if blankOrComment(ln) {
			continue
		}
		if ln[0] == ' ' || ln[0] == '\t' {
			return nil, errAt(n, "unexpected indentation: a key starts at the beginning of its line")
		}
		key, rest, ok := splitKey(ln)
		if !ok {
			return nil, errAt(n, "expected \"key: value\", got %q", clip(ln))
		}
		if seen[key] {
			return nil, errAt(n, "key %q appears twice", key)
		}
		seen[key] = true
		f := field{Key: key, Line: n, Raw: rest}
		var err error
		if rest != "" {
			err = scalarOrFlow(&f, rest, n)
		} else {
			i, err = block(&f, lines, i+1, first)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// block reads the indented lines after "key:" from lines[i]; it returns
// the index of the last line it consumed.
func block(f *field, lines []string, i, first int) (int, error) {
	f.Kind = kindNull
	for ; i < len(lines); i++ {
		ln, n := lines[i], first+i
		if blankOrComment(ln) {
			continue
		}
		if ln[0] != ' ' && ln[0] != '\t' {
			break
		}
		item := strings.TrimLeft(ln, " \t")
		if strings.HasPrefix(item, "- ") || item == "-" {
			if f.Kind == kindMap {
				return i, errAt(n, "a list item inside the map %q", f.Key)
			}
			f.Kind = kindList
			v, err := scalar(strings.TrimSpace(strings.TrimPrefix(item, "-")), n)
			if err != nil {
				return i, err
			}
			f.List = append(f.List, v)
			continue
		}
		k, rest, ok := splitKey(item)
		if !ok || f.Kind == kindList {
			return i, errAt(n, "expected \"- item\" or \"key: value\" under %q, got %q", f.Key, clip(item))
		}
		f.Kind = kindMap
		v, err := scalar(rest, n)
		if err != nil {
			return i, err
		}
		f.Map = append(f.Map, pair{Key: k, Value: v, Line: n})
	}
	return i - 1, nil
}

func scalarOrFlow(f *field, rest string, n int) error {
	if strings.HasPrefix(rest, "[") {
		f.Kind = kindList
		items, err := flowList(rest, n)
		f.List = items
		return err
	}
	if rest == "null" || rest == "~" {
		f.Kind = kindNull
		return nil
	}
	if strings.HasPrefix(rest, "{") {
		f.Kind = kindScalar // a JSON value: only meta and promotions accept one
		f.Scalar = rest
		return nil
	}
	v, err := scalar(rest, n)
	f.Kind, f.Scalar = kindScalar, v
	return err
}

// flowList reads "[a, 'b', \"c\"]": scalars only.
func flowList(s string, n int) ([]string, error) {
	s = stripComment(s)
	if !strings.HasSuffix(s, "]") {
		return nil, errAt(n, "a list that starts with [ must end with ] on the same line")
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	var out []string
	for body != "" {
		var item string
		switch body[0] {
		case '"', '\'':
			end := quotedEnd(body)
			if end < 0 {
				return nil, errAt(n, "unterminated quoted string in a list")
			}
			item, body = body[:end+1], strings.TrimSpace(body[end+1:])
		default:
			j := strings.IndexByte(body, ',')
			if j < 0 {
				j = len(body)
			}
			item, body = strings.TrimSpace(body[:j]), body[j:]
		}
		v, err := scalar(item, n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if body != "" {
			if body[0] != ',' {
				return nil, errAt(n, "expected , between list items")
			}
			body = strings.TrimSpace(body[1:])
		}
	}
	return out, nil
}

// quotedEnd is the index of the quote closing the string s starts with,
// or -1.
func quotedEnd(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// scalar reads one scalar: plain, 'single' or "double" quoted.
func scalar(s string, n int) (string, error) {
	if s == "" {
		return "", nil
	}
	switch s[0] {
	case '"':
		end := quotedEnd(s)
		if end < 0 || strings.TrimSpace(stripComment(s[end+1:])) != "" {
			return "", errAt(n, "a double-quoted string must end with \" on the same line")
		}
		return unescape(s[1:end], n)
	case '\'':
		end := quotedEnd(s)
		if end < 0 || strings.TrimSpace(stripComment(s[end+1:])) != "" {
			return "", errAt(n, "a single-quoted string must end with ' on the same line")
		}
		return strings.ReplaceAll(s[1:end], "''", "'"), nil
	case '&', '*', '!', '|', '>', '%', '@', '`', '{':
		return "", errAt(n, "%q: anchors, aliases, tags, block scalars and maps are not supported here: quote the value", clip(s))
	}
	return strings.TrimSpace(stripComment(s)), nil
}

// unescape decodes the escapes of a YAML double-quoted string.
func unescape(s string, n int) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			return "", errAt(n, "a string ends with a lone backslash")
		}
		i++
		if r, ok := simpleEscapes[s[i]]; ok {
			b.WriteString(r)
			continue
		}
		width := hexWidth[s[i]]
		if width == 0 {
			return "", errAt(n, "unknown escape \\%c", s[i])
		}
		if i+width >= len(s) {
			return "", errAt(n, "a \\%c escape needs %d hex digits", s[i], width)
		}
		v, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return "", errAt(n, "bad escape \\%s", s[i:i+1+width])
		}
		b.WriteRune(rune(v))
		i += width
	}
	return b.String(), nil
}

var hexWidth = map[byte]int{'x': 2, 'u': 4, 'U': 8}

var simpleEscapes = map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", 'n': "\n", 'v': "\v",
	'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': `"`, '/': "/", '\\': `\`, 'N': "\u0085", '_': "\u00a0",
	'L': "\u2028", 'P': "\u2029", '\t': "\t"}

// splitKey splits "key: rest" (or "key:"); keys are plain words.
func splitKey(ln string) (key, rest string, ok bool) {
	i := strings.IndexByte(ln, ':')
	if i <= 0 {
		return "", "", false
	}
	key = ln[:i]
	for _, c := range key {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", "", false
		}
	}
	rest = ln[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return key, strings.TrimSpace(rest), true
}

func blankOrComment(ln string) bool {
	t := strings.TrimSpace(ln)
	return t == "" || t[0] == '#'
}

// stripComment drops a " #" comment from a plain value.
func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
