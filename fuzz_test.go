package mneme_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// Fuzz targets for the request decoders every surface shares (request
// bodies, tool arguments, import lines) and the time parsers. Their seed
// corpora are in testdata/fuzz; scripts/fuzz runs them all.

var fuzzNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// wantInvalid fails unless err is nil or an EINVALID error.
func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("%s: %v has code %s, want EINVALID", what, err, mneme.ErrorCode(err))
	}
}

// reencodes checks that v encodes, decodes strictly into a fresh *T, and
// encodes to the same bytes again: what a surface decodes, it can echo.
func reencodes[T any](t *testing.T, v *T) {
	t.Helper()
	first, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode %+v: %v", v, err)
	}
	var again T
	if err := mneme.DecodeStrict(first, &again); err != nil {
		t.Fatalf("decode %s: %v", first, err)
	}
	second, err := json.Marshal(&again)
	if err != nil {
		t.Fatalf("encode again: %v", err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("round trip changed the value:\n%s\n%s", first, second)
	}
}

// storable fails if a validated record holds a time the store cannot keep
// (it keeps nanoseconds since 1970 in 64 bits).
func storable(t *testing.T, r *mneme.Record) {
	t.Helper()
	for name, tm := range map[string]*time.Time{"occurred_at": r.OccurredAt, "expires_at": r.ExpiresAt, "created_at": &r.CreatedAt, "updated_at": &r.UpdatedAt} {
		if tm != nil && !tm.IsZero() && !time.Unix(0, tm.UnixNano()).Equal(*tm) {
			t.Fatalf("a valid record's %s %s does not fit the store's nanoseconds", name, tm)
		}
	}
}

// FuzzDecodeRememberRequest: a remember body (HTTP, MCP arguments as the
// same fields) decodes or fails with EINVALID, never panics; a decoded
// request builds a record or fails with EINVALID; a valid record's times
// fit the store; the request re-encodes stably.
func FuzzDecodeRememberRequest(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var req mneme.RememberRequest
		if err := mneme.DecodeStrict(data, &req); err != nil {
			wantInvalid(t, "decode", err)
			return
		}
		reencodes(t, &req)
		rec, err := req.Record(fuzzNow)
		wantInvalid(t, "record", err)
		if err != nil {
			return
		}
		if err := mneme.Prepare(rec); err != nil && !req.Redact {
			t.Fatalf("Record accepted what Prepare refuses: %v", err)
		}
		storable(t, rec)
	})
}

// FuzzDecodePatch: a PATCH body decodes or fails with EINVALID; Check
// accepts it or fails with EINVALID; it re-encodes stably.
func FuzzDecodePatch(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var p mneme.Patch
		if err := mneme.DecodeStrict(data, &p); err != nil {
			wantInvalid(t, "decode", err)
			return
		}
		reencodes(t, &p)
		wantInvalid(t, "check", p.Check())
	})
}

// FuzzDecodeForgetFilter: a forget filter (the HTTP body's filter, the MCP
// tool's parameters) decodes or fails with EINVALID; the request it makes
// checks or fails with EINVALID, and an empty filter is always refused.
func FuzzDecodeForgetFilter(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var ff mneme.ForgetFilter
		if err := mneme.DecodeStrict(data, &ff); err != nil {
			wantInvalid(t, "decode", err)
			return
		}
		reencodes(t, &ff)
		req := mneme.ForgetRequest{ForgetFilter: ff}
		err := req.Check(fuzzNow)
		wantInvalid(t, "check", err)
		if err == nil && ff.Project == "" && len(ff.Types) == 0 && len(ff.Kinds) == 0 && len(ff.Tags) == 0 && ff.Before == "" && ff.Key == "" {
			t.Fatal("an empty filter was accepted: it would forget everything")
		}
	})
}

// FuzzDecodePromoteRequest: a promote body (HTTP, the MCP tool's
// parameters) decodes or fails with EINVALID; Check accepts it or fails
// with EINVALID, and what it accepts names a reusable type and status.
func FuzzDecodePromoteRequest(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var req mneme.PromoteRequest
		if err := mneme.DecodeStrict(data, &req); err != nil {
			wantInvalid(t, "decode", err)
			return
		}
		reencodes(t, &req)
		err := req.Check()
		wantInvalid(t, "check", err)
		if err == nil && (len(req.IDs) == 0 || (req.To != mneme.Semantic && req.To != mneme.Procedural) ||
			(req.Status != mneme.Validated && req.Status != mneme.Published)) {
			t.Fatalf("accepted %+v", req)
		}
	})
}

// FuzzDecodeLines: an import file decodes or fails with EINVALID naming a
// line; decoded records keep their line numbers in order; each record
// validates or fails with EINVALID, a valid one fits the store, and the
// records re-export (one JSON line each) to lines that decode to the same.
func FuzzDecodeLines(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, lines, err := mneme.DecodeLines(data)
		if err != nil {
			wantInvalid(t, "decode", err)
			if !strings.Contains(mneme.ErrorMessage(err), "line ") && !strings.Contains(mneme.ErrorMessage(err), "no records") {
				t.Fatalf("error names no line: %v", err)
			}
			return
		}
		if len(recs) != len(lines) || len(recs) == 0 {
			t.Fatalf("%d records, %d line numbers", len(recs), len(lines))
		}
		for i := range lines {
			if lines[i] < 1 || (i > 0 && lines[i] <= lines[i-1]) {
				t.Fatalf("line numbers %v", lines)
			}
		}
		var out bytes.Buffer
		for _, r := range recs {
			err := mneme.Prepare(r)
			wantInvalid(t, "prepare", err)
			if err != nil {
				return
			}
			storable(t, r)
			line, err := json.Marshal(r)
			if err != nil {
				t.Fatalf("a valid record does not encode: %v", err)
			}
			out.Write(line)
			out.WriteByte('\n')
		}
		again, _, err := mneme.DecodeLines(out.Bytes())
		if err != nil || len(again) != len(recs) {
			t.Fatalf("re-export does not decode: %v", err)
		}
		for i, r := range again {
			if err := mneme.Prepare(r); err != nil {
				t.Fatalf("re-exported record %d is invalid: %v", i, err)
			}
			a, _ := json.Marshal(recs[i])
			b, _ := json.Marshal(r)
			if !bytes.Equal(a, b) {
				t.Fatalf("re-export changed record %d:\n%s\n%s", i, a, b)
			}
		}
	})
}

// FuzzParseTime: times, dates and ages parse or fail with EINVALID; a
// parsed time is UTC and survives RFC 3339 and back. Durations: a parsed sum of days and weeks never wraps around (a
// sum too large for a duration is an error, not a small or negative one),
// and a TTL is positive.
func FuzzParseTime(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := mneme.ParseTime("at", s, fuzzNow)
		wantInvalid(t, "time", err)
		if err == nil {
			if tm.Location() != time.UTC {
				t.Fatalf("ParseTime(%q) = %v, not UTC", s, tm)
			}
			if text, err := tm.MarshalText(); err == nil {
				back, err := mneme.ParseTime("at", string(text), fuzzNow)
				if err != nil || !back.Equal(tm) {
					t.Fatalf("ParseTime(%q) = %s, which reads back as %v, %v", s, text, back, err)
				}
			}
		}
		d, err := mneme.ParseDuration(s) // its error may be time.ParseDuration's: its callers say what to send
		if err == nil {
			if want, ok := sumOfParts(s); ok && math.Abs(want-float64(d)) > 1e-6*math.Abs(want)+1e3 {
				t.Fatalf("ParseDuration(%q) = %v, but its parts add up to %g ns", s, d, want)
			}
		}
		if ttl, err := mneme.ParseTTL(s); err == nil && ttl <= 0 {
			t.Fatalf("ParseTTL(%q) = %v", s, ttl)
		} else {
			wantInvalid(t, "ttl", err)
		}
	})
}

// sumOfParts adds up a duration's day and week parts and its Go tail in
// floating point, where nothing wraps; ok is false if a part does not parse.
func sumOfParts(s string) (float64, bool) {
	total := 0.0
	rest := strings.TrimSpace(s)
	for rest != "" {
		i := strings.IndexAny(rest, "dw")
		if i < 0 {
			d, err := time.ParseDuration(rest)
			return total + float64(d), err == nil
		}
		var n float64
		if err := json.Unmarshal([]byte(rest[:i]), &n); err != nil {
			return 0, false // a number JSON does not read (strconv's hex, underscores, Inf): skip the check
		}
		unit := float64(24 * time.Hour)
		if rest[i] == 'w' {
			unit *= 7
		}
		total += n * unit
		rest = rest[i+1:]
	}
	return total, true
}

// FuzzDecodeExport: an export with documents and vectors decodes or is
// refused as bad input (EINVALID, naming a line); a vector it accepts has
// its embedder's dimension and finite values.
func FuzzDecodeExport(f *testing.F) {
	rec := `{"id":"01a21c1a-3713-70bf-8370-389d81e8f077","project":"kb","type":"semantic","text":"t","tags":[],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","status":"active","sensitivity":"internal","content_hash":""}`
	f.Add(rec + "\n" + `{"mneme_document":{"id":"01a21c1a-3711-70f1-8e4a-7733c2534d7c","project":"kb","uri":"docs/a.md","hash":"","chunks":1,"updated_at":"2026-01-01T00:00:00Z"}}`)
	f.Add(rec + "\n" + `{"mneme_embedder":{"provider":"hash","model":"m","version":"1","dim":1}}` + "\n" + `{"mneme_vector":{"id":"01a21c1a-3713-70bf-8370-389d81e8f077","f32":"AACAPw=="}}`)
	f.Add(`{"mneme_vector":{"id":"x","f32":"AAAA"}}`)
	f.Add(`{"mneme_document":{},"mneme_embedder":{}}`)
	f.Fuzz(func(t *testing.T, s string) {
		_, _, x, err := mneme.DecodeExport([]byte(s))
		wantInvalid(t, "DecodeExport", err)
		if err != nil || x.Vectors == nil {
			return
		}
		for id, v := range x.Vectors.ByID {
			if len(v) != x.Vectors.Embedder.Dim {
				t.Fatalf("vector %s has %d values for dimension %d", id, len(v), x.Vectors.Embedder.Dim)
			}
			for _, y := range v {
				if math.IsNaN(float64(y)) || math.IsInf(float64(y), 0) {
					t.Fatalf("vector %s holds %v", id, y)
				}
			}
		}
	})
}
