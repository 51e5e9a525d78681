package mneme_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestMetaMatch: a condition matches a top-level scalar as text; a number
// by value; a missing key, null, an object or an array never.
func TestMetaMatch(t *testing.T) {
	cases := []struct {
		meta, key, value string
		want             bool
	}{
		{`{"tenant":"acme"}`, "tenant", "acme", true},
		{`{"tenant":"acme"}`, "tenant", "Acme", false},
		{`{"tenant":"acme"}`, "domain", "acme", false},
		{``, "tenant", "acme", false},
		{`{"tenant":null}`, "tenant", "null", false},
		{`{"tenant":{"id":"acme"}}`, "tenant", "acme", false},
		{`{"tenant":["acme"]}`, "tenant", "acme", false},
		{`{"v":3}`, "v", "3", true},
		{`{"v":3}`, "v", "3.0", true},
		{`{"v":3.5}`, "v", "3.50", true},
		{`{"v":"3"}`, "v", "3", true},
		{`{"v":"3"}`, "v", "3.0", false},
		{`{"v":1e3}`, "v", "1000", true},
		{`{"ok":true}`, "ok", "true", true},
		{`{"ok":"true"}`, "ok", "true", true},
		{`{"ok":true}`, "ok", "1", false},
		{`{"published_at":"2025-01-03"}`, "published_at", "2025-01-03", true},
		{`{"tenant":""}`, "tenant", "", true},
		{`{"a=b":"c"}`, "a=b", "c", true},
	}
	for _, c := range cases {
		r := &mneme.Record{Meta: json.RawMessage(c.meta), Status: mneme.Active, Sensitivity: mneme.Internal}
		f := mneme.Filter{Meta: []mneme.MetaMatch{{Key: c.key, Value: c.value}}}
		if err := f.Check(); err != nil {
			t.Fatal(err)
		}
		if got := f.Match(r); got != c.want {
			t.Errorf("meta %s, %s=%s: match %v, want %v", c.meta, c.key, c.value, got, c.want)
		}
	}
}

// TestParseMetaMatch: KEY=VALUE, the value as written (it may hold '=').
func TestParseMetaMatch(t *testing.T) {
	for _, c := range []struct{ in, key, value, err string }{
		{"tenant=acme", "tenant", "acme", ""},
		{" tenant =acme ", "tenant", "acme ", ""},
		{"expr=a=b", "expr", "a=b", ""},
		{"tenant=", "tenant", "", ""},
		{"tenant", "", "", "is not KEY=VALUE"},
		{"=acme", "", "", "empty key"},
		{"  =acme", "", "", "empty key"},
		{strings.Repeat("k", 300) + "=v", "", "", "too long"},
		{"k=\x00", "", "", "NUL"},
	} {
		m, err := mneme.ParseMetaMatch(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || mneme.ErrorCode(err) != mneme.EINVALID):
			t.Errorf("%q: err %v, want one containing %q", c.in, err, c.err)
		case c.err == "" && (err != nil || m.Key != c.key || m.Value != c.value):
			t.Errorf("%q: %+v, %v; want %s=%s", c.in, m, err, c.key, c.value)
		}
	}
}

// TestMetaDuplicateKeyRefused: stores would disagree on which of two
// values a filter sees, so a record may not give a key twice.
func TestMetaDuplicateKeyRefused(t *testing.T) {
	r := &mneme.Record{Text: "x", Meta: json.RawMessage(`{"tenant":"a","tenant":"b"}`)}
	if err := mneme.Prepare(r); err == nil || !strings.Contains(err.Error(), `the key "tenant" twice`) {
		t.Fatalf("validate: %v", err)
	}
}

// FuzzMetaFilter: a meta filter decodes or fails with EINVALID; what
// decodes checks, and a record whose meta is the filter itself passes it.
func FuzzMetaFilter(f *testing.F) {
	for _, s := range []string{`{"tenant":"acme","v":3}`, `{"a":true}`, `{"a":{"b":1}}`, `{"":"x"}`, `null`, `[1]`, `{"a":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var mf mneme.MetaFilter
		if err := json.Unmarshal(data, &mf); err != nil {
			if mneme.ErrorCode(err) == mneme.EINVALID || !json.Valid(data) {
				return
			}
			t.Fatalf("decode %q: %v (not EINVALID)", data, err)
		}
		fl := mneme.Filter{Meta: mf}
		if err := fl.Check(); err != nil {
			t.Fatalf("decoded filter %q fails its check: %v", data, err)
		}
		obj := map[string]string{}
		for _, m := range mf {
			obj[m.Key] = m.Value
		}
		meta, _ := json.Marshal(obj)
		r := &mneme.Record{Meta: meta, Status: mneme.Active, Sensitivity: mneme.Internal}
		if len(obj) == len(mf) && !fl.Match(r) {
			t.Fatalf("a record with meta %s does not pass the filter it was made from", meta)
		}
	})
}
