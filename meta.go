package mneme

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// MetaMatch is one condition of a metadata filter: the record's meta
// object has Key at its top level, with a scalar value whose text is
// Value. A record without the key does not pass (the filter fails closed).
//
// A value matches as text: a string equal to Value, a number equal to
// Value read as a number (3 matches "3" and "3.0"), true or false equal to
// Value. So --meta document_version=3 finds {"document_version": 3} and
// {"document_version": "3"} alike, on every store.
type MetaMatch struct {
	Key, Value string
}

// MaxMetaMatches bounds the conditions of one filter.
const MaxMetaMatches = 16

// ParseMetaMatch reads a KEY=VALUE condition as the CLI and query strings
// write it. The key is trimmed; the value is taken as written.
func ParseMetaMatch(s string) (MetaMatch, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return MetaMatch{}, Invalid("meta filter %q is not KEY=VALUE: write it like --meta tenant=acme", Clip(s))
	}
	m := MetaMatch{Key: strings.TrimSpace(k), Value: v}
	return m, m.check()
}

func (m MetaMatch) check() error {
	switch {
	case m.Key == "":
		return Invalid("meta filter %q has an empty key: write it like tenant=acme", Clip(m.Key+"="+m.Value))
	case len(m.Key) > MaxFieldBytes || len(m.Value) > MaxFieldBytes:
		return Invalid("meta filter %q is too long: keys and values are at most %d bytes", Clip(m.Key), MaxFieldBytes)
	case strings.ContainsRune(m.Key, 0) || strings.ContainsRune(m.Value, 0):
		return Invalid("meta filter %q contains a NUL character", Clip(m.Key))
	}
	return nil
}

// checkMetaMatches validates and orders a filter's meta conditions.
func checkMetaMatches(ms []MetaMatch) ([]MetaMatch, error) {
	if len(ms) > MaxMetaMatches {
		return nil, Invalid("%d meta filters is more than the limit of %d", len(ms), MaxMetaMatches)
	}
	for _, m := range ms {
		if err := m.check(); err != nil {
			return nil, err
		}
	}
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b MetaMatch) int { return strings.Compare(a.Key+"\x00"+a.Value, b.Key+"\x00"+b.Value) })
	return slices.Compact(ms), nil
}

// Forms returns the typed forms m matches (see MetaForm): the string
// Value, and the number or boolean Value reads as, if any. A record passes
// m when one of its MetaForms is among them.
func (m MetaMatch) Forms() []string {
	out := []string{metaForm(m.Key, 's', m.Value)}
	if n, ok := canonicalNumber(m.Value); ok {
		out = append(out, metaForm(m.Key, 'n', n))
	}
	if m.Value == "true" || m.Value == "false" {
		out = append(out, metaForm(m.Key, 'b', m.Value))
	}
	return out
}

// metaForm is a typed top-level meta value, key NUL type NUL text: type s
// (string), n (number, canonical text) or b (true, false). A key holds no
// NUL (keys with one are never indexed), so forms never collide.
func metaForm(key string, typ byte, text string) string {
	return key + "\x00" + string(typ) + "\x00" + text
}

// canonicalNumber is the text of s read as a JSON number: the shortest
// form of its float64 value, so 3, 3.0 and 3e0 agree.
func canonicalNumber(s string) (string, bool) {
	if !json.Valid([]byte(s)) || s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return "", false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

// MetaForms returns the typed forms of meta's top-level scalar values
// (see MetaMatch.Forms): what a store indexes to filter on meta. Objects,
// arrays and null values are not matched by any filter.
func MetaForms(meta json.RawMessage) []string {
	if len(meta) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(meta, &obj) != nil {
		return nil
	}
	var out []string
	for k, raw := range obj {
		if strings.ContainsRune(k, 0) {
			continue
		}
		switch v := bytes.TrimSpace(raw); {
		case len(v) == 0:
		case v[0] == '"':
			var s string
			if json.Unmarshal(v, &s) == nil {
				out = append(out, metaForm(k, 's', s))
			}
		case string(v) == "true" || string(v) == "false":
			out = append(out, metaForm(k, 'b', string(v)))
		case v[0] == '-' || (v[0] >= '0' && v[0] <= '9'):
			if n, ok := canonicalNumber(string(v)); ok {
				out = append(out, metaForm(k, 'n', n))
			}
		}
	}
	slices.Sort(out)
	return out
}

// matchMeta reports whether a record's meta passes every condition.
func matchMeta(ms []MetaMatch, meta json.RawMessage) bool {
	if len(ms) == 0 {
		return true
	}
	have := MetaForms(meta)
	for _, m := range ms {
		if !slices.ContainsFunc(m.Forms(), func(f string) bool { _, ok := slices.BinarySearch(have, f); return ok }) {
			return false
		}
	}
	return true
}

// MetaFilter is the JSON form of meta conditions, as requests carry them:
// an object of scalar values, {"tenant": "acme", "document_version": 3}.
// Every condition must hold.
type MetaFilter []MetaMatch

// UnmarshalJSON refuses anything but an object of strings, numbers and
// booleans.
func (mf *MetaFilter) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*mf = nil
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return Invalid("field \"meta\" must be an object of values to match, like {\"tenant\":\"acme\"}, not %s", jsonValueKind(data))
	}
	out := make(MetaFilter, 0, len(obj))
	for k, raw := range obj {
		m := MetaMatch{Key: strings.TrimSpace(k)}
		switch v := bytes.TrimSpace(raw); {
		case len(v) > 0 && v[0] == '"':
			_ = json.Unmarshal(v, &m.Value)
		case string(v) == "true" || string(v) == "false":
			m.Value = string(v)
		case len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9')):
			m.Value = string(v)
		default:
			return Invalid("meta filter %q: the value must be a string, number or boolean, not %s (a filter matches a top-level scalar exactly)", Clip(k), jsonValueKind(v))
		}
		if err := m.check(); err != nil {
			return err
		}
		out = append(out, m)
	}
	ms, err := checkMetaMatches(out)
	*mf = ms
	return err
}

// MarshalJSON writes the conditions as an object of strings.
func (mf MetaFilter) MarshalJSON() ([]byte, error) {
	obj := make(map[string]string, len(mf))
	for _, m := range mf {
		obj[m.Key] = m.Value
	}
	return json.Marshal(obj)
}

// ParseMetaMatches reads KEY=VALUE conditions (CLI flags, query strings).
func ParseMetaMatches(pairs []string) (MetaFilter, error) {
	var out MetaFilter
	for _, p := range pairs {
		m, err := ParseMetaMatch(p)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return checkMetaMatches(out)
}

// SplitMetaForm splits a form of MetaMatch.Forms into its key, type (s, n
// or b) and text, for a store that keeps them in columns.
func SplitMetaForm(form string) (key string, typ byte, text string) {
	key, rest, _ := strings.Cut(form, "\x00")
	if len(rest) < 2 {
		return key, 0, ""
	}
	return key, rest[0], rest[2:]
}
