package mneme_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

func TestDecodeStrict(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"query":"x","k":5,"types":["episodic"],"tags":["a"],"all_tags":true,"id":"q"}`, ""},
		{`{"query":"x","colour":1}`, `unknown field "colour": allowed fields are`},
		{`{"query":5}`, `field "query" must be a string, not number`},
		{`{"query":"x","k":1.5}`, `field "k" must be a number`},
		{`{"query":"x","tags":"a"}`, `field "tags" must be an array`},
		{`{"query":"x","all_tags":"yes"}`, `field "all_tags" must be true or false`},
		{`["query"]`, "expected a JSON object"},
		{`{"query":"x"} trailing`, "send one object"},
		{`{"query":`, "invalid JSON"},
		{`{"query":"x","since":5}`, `field "since" must be a string`},
		{``, "empty input"},
		{"{\"query\":\"\xff\"}", ""},
	}
	for _, c := range cases {
		var r mneme.RecallRequest
		err := mneme.DecodeStrict([]byte(c.in), &r)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.want != "" && (mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want EINVALID containing %q", c.in, err, c.want)
		}
	}
}

// FuzzDecodeRecallRequest: any input decodes or fails with EINVALID, never
// panics, and a decoded request converts to a query or fails with EINVALID.
func FuzzDecodeRecallRequest(f *testing.F) {
	for _, s := range []string{`{"query":"x"}`, `{"query":"a b","k":3,"since":"7d","until":"2026-01-01"}`,
		`{"tags":["x",""],"types":["semantic"],"project":"p"}`, `{"k":-1}`, `[]`, `null`, `{"query":"\u0000"}`} {
		f.Add([]byte(s))
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		var r mneme.RecallRequest
		if err := mneme.DecodeStrict(data, &r); err != nil {
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("decode error %v has code %s", err, mneme.ErrorCode(err))
			}
			return
		}
		q, err := r.ToQuery(now, mneme.Internal)
		if err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("ToQuery error %v has code %s", err, mneme.ErrorCode(err))
		}
		if err == nil && q.Filter.Since != nil && q.Filter.Until != nil && q.Filter.Since.After(*q.Filter.Until) {
			t.Fatal("accepted an impossible time range")
		}
	})
}

// FuzzDecodeRecord: an import line decodes and validates or fails with
// EINVALID; it never panics, and a valid record has its hash and defaults.
func FuzzDecodeRecord(f *testing.F) {
	for _, s := range []string{`{"text":"x"}`, `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","project":"p","type":"episodic","text":"t","tags":["A"," a "],"meta":{"k":[1]},"occurred_at":"2026-01-01T00:00:00Z","links":[{"type":"follows","target":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5f"}],"source":{"uri":"a.md","line_start":1,"line_end":2}}`,
		`{"text":"password=hunter2"}`, `{"text":""}`, `{"meta":null,"text":"m"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r mneme.Record
		if err := mneme.DecodeStrict(data, &r); err != nil {
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("decode: %v (%s)", err, mneme.ErrorCode(err))
			}
			return
		}
		err := mneme.Prepare(&r)
		if err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("prepare: %v (%s)", err, mneme.ErrorCode(err))
		}
		if err == nil && (len(r.ContentHash) != 64 || r.Project == "" || r.Status == "") {
			t.Fatalf("valid record without hash or defaults: %+v", r)
		}
	})
}

func TestSplitList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []string
	}{
		{nil, nil},
		{[]string{""}, nil},
		{[]string{"a"}, []string{"a"}},
		{[]string{" a, b ,,c "}, []string{"a", "b", "c"}},
		{[]string{"a,b", "c"}, []string{"a", "b", "c"}},
	} {
		if got := mneme.SplitList(c.in...); !slices.Equal(got, c.want) {
			t.Errorf("SplitList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
