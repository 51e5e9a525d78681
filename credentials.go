package mneme

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/internal/secret"
)

// checkCredentials refuses, or with redact masks, the credentials in every
// free-form string of r: the title and text, and the project, kind, key,
// tags, source, session, run, speaker, who promoted it and every key and
// string of meta, which are stored and shown to every reader just as the
// text is. The error names the first field that holds one (tags[2],
// meta.db.url). The other string fields are enums, ids and hashes that
// validation holds to a fixed shape. Tags, the source, the promotions and
// meta are replaced, never changed in place: Check runs on a copy of a
// record that shares them with its caller.
func checkCredentials(r *Record, redact bool) error {
	for _, f := range [...]struct {
		name  string
		v     *string
		limit int
	}{
		{"title", &r.Title, MaxTitleBytes}, {"text", &r.Text, MaxTextBytes},
		{"project", &r.Project, 0}, {"kind", &r.Kind, MaxFieldBytes}, {"key", &r.Key, MaxFieldBytes},
		{"session_id", &r.SessionID, MaxFieldBytes}, {"run_id", &r.RunID, MaxFieldBytes},
		{"speaker", &r.Speaker, MaxFieldBytes},
	} {
		if err := checkString(f.name, f.v, f.limit, redact); err != nil {
			return err
		}
	}
	copied := false
	for i, t := range r.Tags {
		if err := checkString("tags["+strconv.Itoa(i)+"]", &t, MaxTagBytes, redact); err != nil {
			return err
		}
		if t != r.Tags[i] {
			if !copied {
				r.Tags, copied = append([]string(nil), r.Tags...), true
			}
			r.Tags[i] = t
		}
	}
	if r.Source != nil {
		s := *r.Source
		if err := checkString("source.uri", &s.URI, 4*MaxFieldBytes, redact); err != nil {
			return err
		}
		if err := checkString("source.parent", &s.Parent, MaxFieldBytes, redact); err != nil {
			return err
		}
		if s != *r.Source {
			r.Source = &s
		}
	}
	for i, p := range r.Promotions { // by names a token or a user; an import may bring anything
		by := p.By
		if err := checkString("promotions["+strconv.Itoa(i)+"].by", &by, MaxFieldBytes, redact); err != nil {
			return err
		}
		if by != p.By { // masked: a copy, as for tags
			r.Promotions = slices.Clone(r.Promotions)
			r.Promotions[i].By = by
		}
	}
	meta, err := checkMeta(r.Meta, redact)
	r.Meta = meta
	return err
}

// CheckCredential refuses a credential in the value of a field named name
// (the error names it), or masks it in place with redact: the scanner a
// write applies to every field, for a caller that checks its own fields
// before it builds records (ops names the row and field of a batch).
func CheckCredential(name string, v *string, redact bool) error {
	return checkString(name, v, math.MaxInt, redact)
}

// checkString checks the field name, masking in place with redact. limit
// (0 for the project, whose pattern a mask never fits) is the field's
// length limit, which a mask longer than the value may overrun.
func checkString(name string, v *string, limit int, redact bool) error {
	if *v == "" {
		return nil
	}
	return checkFound(name, v, secret.Scan(*v), limit, redact)
}

func checkFound(name string, v *string, found []secret.Finding, limit int, redact bool) error {
	switch {
	case len(found) == 0:
		return nil
	case !redact:
		return credentialError(name, *v, found)
	case limit == 0:
		return Invalid("%s contains a credential (%s), which cannot be masked in a %s: use another name", name, describeIn(name, *v, found), name)
	}
	masked := secret.Mask(*v, found)
	if len(masked) > limit {
		return Invalid("%s is %d bytes once its credential (%s) is masked, over the limit of %d: leave the credential out", name, len(masked), describeIn(name, *v, found), limit)
	}
	*v = masked
	return nil
}

func credentialError(name, v string, found []secret.Finding) error {
	what := name
	if name == "text" {
		what = "the text" // the message every surface has always given
	}
	c := &CredentialFound{Field: name, Found: describeIn(name, v, found)}
	return &Error{Code: EINVALID, Err: c,
		Message: fmt.Sprintf("%s contains a credential (%s), so nothing was written: store it as secret ({{sensitivity=secret}}) or mask the values ({{redact=true}})", what, c.Found)}
}

// CredentialFound is the cause of a record refused for a credential: the
// field that holds it (text, tags[2], meta.db.url) and what was found.
type CredentialFound struct {
	ID    string `json:"id,omitempty"` // the stored record's, in an audit
	Field string `json:"field"`
	Found string `json:"found"`
}

func (c *CredentialFound) Error() string { return c.Field + " contains a credential (" + c.Found + ")" }

// AuditCredentials finds the stored records, secret ones aside, that hold
// a credential in a field every reader sees: records written by a version
// that checked only the title and text, or copied from such a home. Each
// is reported once, by the first field that holds one.
func (e *Engine) AuditCredentials(ctx context.Context) ([]CredentialFound, error) {
	out := []CredentialFound{}
	all := Filter{IncludeSuperseded: true, IncludeExpired: true, Clearance: Internal} // secret records may hold credentials
	err := e.Each(ctx, all, func(r *Record) error {
		c := *r
		var found *CredentialFound
		if errors.As(checkCredentials(&c, false), &found) {
			f := *found
			f.ID = r.ID
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

// describeIn says what was found in the field name, with line numbers in
// the text and wherever else v has lines.
func describeIn(name, v string, found []secret.Finding) string {
	if name == "text" || strings.Contains(v, "\n") {
		return secret.Describe(found)
	}
	return secret.DescribeKinds(found)
}

// checkMeta checks every key and string of meta, a JSON object, and
// returns it with redact's masks (each masked string re-encoded in place,
// everything else as it was: key order, numbers, duplicate keys), or as it
// was when nothing was masked. A string stored under a key that names a
// secret ("db_password") counts whole, as "db_password": "…" would in a
// text. Meta that is not one JSON object is left to validation.
//
// Scanning each string on its own costs a scan's fixed overhead per key
// and value, several times the cost of scanning their bytes, so a first
// walk gathers them into one text, a line apart (no detector matches
// across lines but a private key block, which is a credential either way),
// and only the strings that this one scan flags, or that sit under a
// secret's name, are walked again and scanned on their own.
func checkMeta(meta json.RawMessage, redact bool) (json.RawMessage, error) {
	t := bytes.TrimSpace(meta)
	if len(t) == 0 || t[0] != '{' {
		return meta, nil
	}
	w := metaWalker{t: t, redact: redact, gather: true, joint: make([]byte, 0, len(t)+len(t)/4)}
	if end, err := w.value(0, "", false); err != nil || w.skip(end) != len(t) {
		return meta, nil // not one JSON object: validation says so
	}
	found := secret.Scan(string(w.joint))
	if len(found) == 0 && len(w.named) == 0 {
		return meta, nil
	}
	w.check = make([]bool, len(w.spans))
	for _, n := range w.named {
		w.check[n] = true
	}
	j := 0
	for _, f := range found { // spans and findings are both in order
		for j+1 < len(w.spans) && w.spans[j+1] <= f.Start {
			j++
		}
		w.check[j] = true // the string holding the finding's start
	}
	w.gather, w.n = false, 0
	if _, err := w.value(0, "", false); err != nil {
		return meta, err
	}
	if w.out == nil {
		return meta, nil
	}
	return append(w.out, t[w.copied:]...), nil
}

// errNotJSON stops a walk of meta that is not valid JSON.
var errNotJSON = Invalid("meta is not valid JSON")

// metaWalker walks meta, the bytes t, twice: to gather its strings, then to
// check those flagged, with their paths (built only to name a finding).
type metaWalker struct {
	t      []byte
	redact bool
	gather bool

	joint []byte // gathered strings, "\n\n" after each
	spans []int  // where each string starts in joint
	named []int  // the strings stored under a secret's name
	check []bool // per string: scan it on its own
	n     int    // strings walked so far

	path   []string // ".key", `["odd key"]` or "[3]" per level below meta
	out    []byte   // t with the masks, once there is one
	copied int      // t[:copied] is in out
}

// value walks the value at i (blanks first) and returns where it ends;
// name is the nearest key above it (when checking), named whether that
// names a secret (when gathering).
func (w *metaWalker) value(i int, name string, named bool) (int, error) {
	t := w.t
	i = w.skip(i)
	if i >= len(t) {
		return 0, errNotJSON
	}
	switch c := t[i]; c {
	case '{', '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = w.skip(i + 1)
		for n := 0; ; n++ {
			if i >= len(t) {
				return 0, errNotJSON
			}
			if t[i] == closer {
				return i + 1, nil
			}
			if n > 0 {
				if t[i] != ',' {
					return 0, errNotJSON
				}
				i = w.skip(i + 1)
			}
			elemName, elemNamed, seg := name, named, ""
			if c == '{' {
				raw, end, escaped, err := w.span(i)
				if err != nil {
					return 0, err
				}
				if w.gather {
					elemNamed, err = w.gatherStr(raw, escaped, true)
				} else {
					var masked string
					elemName, masked, err = w.checkStr(i, end, raw, escaped, "", true)
					seg = keySegment(masked)
				}
				if err != nil {
					return 0, err
				}
				if i = w.skip(end); i >= len(t) || t[i] != ':' {
					return 0, errNotJSON
				}
				i++
			} else if !w.gather {
				seg = "[" + strconv.Itoa(n) + "]"
			}
			w.path = append(w.path, seg)
			end, err := w.value(i, elemName, elemNamed)
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return 0, err
			}
			i = w.skip(end)
		}
	case '"':
		raw, end, escaped, err := w.span(i)
		if err == nil && w.gather {
			if named {
				w.named = append(w.named, w.n)
			}
			_, err = w.gatherStr(raw, escaped, false)
		} else if err == nil {
			_, _, err = w.checkStr(i, end, raw, escaped, name, false)
		}
		return end, err
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(t[i:], []byte(lit)) {
			return i + len(lit), nil
		}
	}
	return number(t, i)
}

// number returns where the JSON number at i ends:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func number(t []byte, i int) (int, error) {
	digits := func(i int) (int, bool) {
		j := i
		for j < len(t) && '0' <= t[j] && t[j] <= '9' {
			j++
		}
		return j, j > i
	}
	if i < len(t) && t[i] == '-' {
		i++
	}
	var ok bool
	if i < len(t) && t[i] == '0' {
		i++
	} else if i, ok = digits(i); !ok {
		return 0, errNotJSON
	}
	if i < len(t) && t[i] == '.' {
		if i, ok = digits(i + 1); !ok {
			return 0, errNotJSON
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if i, ok = digits(i); !ok {
			return 0, errNotJSON
		}
	}
	return i, nil
}

func (w *metaWalker) skip(i int) int {
	for i < len(w.t) && (w.t[i] == ' ' || w.t[i] == '\t' || w.t[i] == '\r' || w.t[i] == '\n') {
		i++
	}
	return i
}

// span finds the string at i: its raw bytes between the quotes, where it
// ends, and whether it has escapes.
func (w *metaWalker) span(i int) (raw []byte, end int, escaped bool, err error) {
	t := w.t
	if i >= len(t) || t[i] != '"' {
		return nil, 0, false, errNotJSON
	}
	high := false
	for end = i + 1; end < len(t) && t[end] != '"'; end++ {
		switch c := t[end]; {
		case c < ' ':
			return nil, 0, false, errNotJSON
		case c == '\\':
			end++
			escaped = true
		case c >= utf8.RuneSelf:
			high = true
		}
	}
	if end >= len(t) {
		return nil, 0, false, errNotJSON
	}
	raw = t[i+1 : end]
	// Invalid UTF-8 is decoded as a JSON reader does, into U+FFFD.
	return raw, end + 1, escaped || high && !utf8.Valid(raw), nil
}

func unescape(raw []byte) (string, error) {
	var s string
	if err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s); err != nil {
		return "", errNotJSON
	}
	return s, nil
}

// gatherStr adds a string to the joint text; for a key, it reports whether
// the key names a secret.
func (w *metaWalker) gatherStr(raw []byte, escaped, key bool) (named bool, err error) {
	w.spans = append(w.spans, len(w.joint))
	w.n++
	if escaped {
		s, err := unescape(raw)
		if err != nil {
			return false, err
		}
		w.joint = append(w.joint, s...)
		named = key && secret.SecretName(s)
	} else {
		w.joint = append(w.joint, raw...)
		named = key && secret.SecretName(string(raw))
	}
	w.joint = append(w.joint, '\n', '\n')
	return named, nil
}

// checkStr checks the string t[i:end] (raw between its quotes), a key of
// the object at the current path or a value stored under name, if the
// gathering flagged it, and masks it. It returns the string and the string
// as masked.
func (w *metaWalker) checkStr(i, end int, raw []byte, escaped bool, name string, key bool) (s, masked string, err error) {
	n := w.n
	w.n++
	if !w.check[n] && !key {
		return "", "", nil
	}
	if s = string(raw); escaped {
		if s, err = unescape(raw); err != nil {
			return "", "", err
		}
	}
	if !w.check[n] {
		return s, s, nil
	}
	var found []secret.Finding
	field := "meta" + strings.Join(w.path, "")
	if key {
		found, field = secret.Scan(s), "a key in "+field
	} else {
		found = secret.ScanNamed(name, s)
	}
	masked = s
	if err := checkFound(field, &masked, found, MaxMetaBytes, w.redact); err != nil || len(found) == 0 {
		return s, s, err
	}
	enc, _ := json.Marshal(masked) // valid UTF-8 as far as s was; masks are ASCII
	w.out = append(append(w.out, w.t[w.copied:i]...), enc...)
	w.copied = end
	return s, masked, nil
}

// keySegment names a meta key in a path: .db_url, or ["odd key"].
func keySegment(key string) string {
	plain := key != ""
	for i := 0; i < len(key) && plain; i++ {
		c := key[i]
		plain = 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
	}
	if plain {
		return "." + key
	}
	return strings.ReplaceAll(fmt.Sprintf("[%q]", key), "{{", "{ {") // not a hint
}
