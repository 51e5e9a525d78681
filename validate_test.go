package mneme_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

func TestPrepareRejects(t *testing.T) {
	valid := func() mneme.Record { return mneme.Record{Text: "a fact"} }
	cases := []struct {
		name string
		edit func(*mneme.Record)
		want string
	}{
		{"empty text", func(r *mneme.Record) { r.Text = "" }, "text is empty"},
		{"blank text", func(r *mneme.Record) { r.Text = " \n\t" }, "text is empty"},
		{"invalid utf-8", func(r *mneme.Record) { r.Text = "a\xffb" }, "not valid UTF-8"},
		{"text too long", func(r *mneme.Record) { r.Text = strings.Repeat("x", mneme.MaxTextBytes+1) }, "text is 1,048,577 bytes; the limit for one record is 1 MiB"},
		{"text of 1.5 MiB", func(r *mneme.Record) { r.Text = strings.Repeat("x", 3<<19) }, "text is 1.5 MiB; the limit for one record is 1 MiB"},
		{"bad id", func(r *mneme.Record) { r.ID = "123" }, "is not a UUID"},
		{"project uppercase", func(r *mneme.Record) { r.Project = "Work" }, "not a valid name"},
		{"project leading dash", func(r *mneme.Record) { r.Project = "-w" }, "not a valid name"},
		{"project too long", func(r *mneme.Record) { r.Project = strings.Repeat("p", 65) }, "not a valid name"},
		{"type", func(r *mneme.Record) { r.Type = "memoir" }, `type "memoir" is not valid`},
		{"status", func(r *mneme.Record) { r.Status = "old" }, `status "old" is not valid`},
		{"provenance", func(r *mneme.Record) { r.Provenance = "rumour" }, `provenance "rumour"`},
		{"sensitivity", func(r *mneme.Record) { r.Sensitivity = "top" }, `sensitivity "top"`},
		{"tag with comma", func(r *mneme.Record) { r.Tags = []string{"a,b"} }, "contains a comma"},
		{"tag too long", func(r *mneme.Record) { r.Tags = []string{strings.Repeat("t", 65)} }, "longer than 64 bytes"},
		{"too many tags", func(r *mneme.Record) {
			for i := range 65 {
				r.Tags = append(r.Tags, fmt.Sprintf("tag-%d", i))
			}
		}, "more than the limit"},
		{"kind control char", func(r *mneme.Record) { r.Kind = "no\nte" }, "kind contains a control character"},
		{"key too long", func(r *mneme.Record) { r.Key = strings.Repeat("k", 257) }, "key is 257 bytes"},
		{"lines backwards", func(r *mneme.Record) { r.Source = &mneme.Source{URI: "a", LineStart: 9, LineEnd: 3} }, "impossible"},
		{"bad parent", func(r *mneme.Record) { r.Source = &mneme.Source{Parent: "doc"} }, "not a document id"},
		{"bad link type", func(r *mneme.Record) { r.Links = []mneme.Link{{Type: "likes", Target: mneme.NewID(time.Now())}} }, `link type "likes"`},
		{"bad link target", func(r *mneme.Record) { r.Links = []mneme.Link{{Type: "follows", Target: "x"}} }, "not a record id"},
		{"meta array", func(r *mneme.Record) { r.Meta = json.RawMessage(`[1]`) }, "meta must be a JSON object"},
		{"meta invalid", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"a":`) }, "meta must be a JSON object"},
		{"hash mismatch", func(r *mneme.Record) { r.ContentHash = "00" }, "content_hash does not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := valid()
			c.edit(&r)
			err := mneme.Prepare(&r)
			if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Prepare = %v, want EINVALID containing %q", err, c.want)
			}
		})
	}
}

func TestPrepareNormalizes(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	r := mneme.Record{Text: "  Caf\u0065\u0301  is\nopen ", Tags: []string{" Ops", "ops", "", "CI "}, OccurredAt: &at,
		Meta: json.RawMessage("{ \"a\" : 1 }")}
	if err := mneme.Prepare(&r); err != nil {
		t.Fatal(err)
	}
	if r.Project != "default" || r.Type != mneme.Semantic || r.Status != mneme.Active || r.Sensitivity != mneme.Internal {
		t.Fatalf("defaults = %s %s %s %s", r.Project, r.Type, r.Status, r.Sensitivity)
	}
	if strings.Join(r.Tags, ",") != "ci,ops" {
		t.Fatalf("tags = %v", r.Tags)
	}
	if r.OccurredAt.Location() != time.UTC || !r.OccurredAt.Equal(at) {
		t.Fatalf("occurred_at = %v", r.OccurredAt)
	}
	if string(r.Meta) != `{"a":1}` {
		t.Fatalf("meta = %s", r.Meta)
	}
	// NFC and whitespace do not change the hash.
	same := mneme.Record{Text: "Caf\u00e9 is open"}
	if err := mneme.Prepare(&same); err != nil || same.ContentHash != r.ContentHash {
		t.Fatalf("hash of the normalised text differs: %s vs %s (%v)", same.ContentHash, r.ContentHash, err)
	}
}

func TestNewIDIsTimeOrderedUUIDv7(t *testing.T) {
	now := time.Now()
	prev := ""
	for i := range 20_000 { // several counter overflows within one millisecond
		id := mneme.NewID(now)
		if !mneme.ValidID(id) || id[14] != '7' || !strings.ContainsRune("89ab", rune(id[19])) {
			t.Fatalf("id %s is not a UUIDv7", id)
		}
		if id <= prev {
			t.Fatalf("id %d (%s) does not sort after %s", i, id, prev)
		}
		prev = id
	}
}

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]time.Time{
		"2026-01-02T03:04:05Z":      time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		"2026-01-02T03:04:05+02:00": time.Date(2026, 1, 2, 1, 4, 5, 0, time.UTC),
		"2026-01-02":                time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
		"7d":                        now.Add(-7 * 24 * time.Hour),
		"36h":                       now.Add(-36 * time.Hour),
		"1w2d":                      now.Add(-9 * 24 * time.Hour),
	}
	for in, want := range cases {
		got, err := mneme.ParseTime("since", in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2026-13-01", "-5d", "0s"} {
		if _, err := mneme.ParseTime("since", bad, now); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Errorf("ParseTime(%q) = %v, want EINVALID", bad, err)
		}
	}
	for _, bad := range []string{"0", "-1h", "forever", "d", "5x"} {
		if _, err := mneme.ParseTTL(bad); err == nil {
			t.Errorf("ParseTTL(%q) accepted", bad)
		}
	}
}
