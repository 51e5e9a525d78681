package ops

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// decodeMeta reads an entry's meta: its kind under "ops", its typed
// fields. Meta is a flat object ops wrote itself (see meta), which a
// timeline of 10,000 entries decodes 10,000 times: a short scanner reads
// that shape, its strings slices of meta (nothing copied), and anything
// else (an escape, a nested value, a field it does not know) goes to
// encoding/json, whose result it always equals (FuzzDecodeMeta checks).
// bools, when not nil, is where a success flag points (false, true): one
// pair for a whole read instead of one allocation a row.
// e is decoded in place (an entry is a few hundred bytes, and a read
// copied each several times): it must be zero.
func decodeMeta(meta string, kind *string, e *Entry, bools *[2]bool) error {
	if flat(meta, kind, e, bools) {
		return nil
	}
	*kind, *e = "", Entry{}
	var m struct {
		Ops string `json:"ops"`
		Entry
	}
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return err
	}
	*kind, *e = m.Ops, m.Entry
	return nil
}

// flat decodes b when it is a flat object of known fields with plain
// values; false sends it to encoding/json.
func flat(b string, kind *string, e *Entry, bools *[2]bool) bool {
	if bools == nil {
		bools = new([2]bool)
		bools[1] = true
	}
	s := scanner{b: b, bools: bools}
	if !s.byte('{') {
		return false
	}
	if s.byte('}') {
		return s.end()
	}
	for {
		key, ok := s.plainString()
		if !ok || !s.byte(':') || !s.field(key, kind, e) {
			return false
		}
		if s.byte('}') {
			return s.end()
		}
		if !s.byte(',') {
			return false
		}
	}
}

type scanner struct {
	b     string
	i     int
	bools *[2]bool // false, true
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) end() bool { s.space(); return s.i == len(s.b) }

// plainString reads a string without escapes or control bytes, in valid
// UTF-8.
func (s *scanner) plainString() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, utf8.ValidString(v)
		case c == '\\' || c < 0x20:
			return "", false
		}
		s.i++
	}
	return "", false
}

// literal reads a number, true, false or null: the bytes up to the next
// delimiter.
func (s *scanner) literal() string {
	s.space()
	start := s.i
	for s.i < len(s.b) && s.b[s.i] != ',' && s.b[s.i] != '}' && s.b[s.i] != ' ' && s.b[s.i] != '\n' && s.b[s.i] != '\t' && s.b[s.i] != '\r' {
		s.i++
	}
	return s.b[start:s.i]
}

// field reads the value of key into kind or e.
func (s *scanner) field(key string, kind *string, e *Entry) bool {
	if p := stringField(key, kind, e); p != nil {
		v, ok := s.plainString()
		*p = v
		return ok
	}
	switch key {
	case "duration_ms", "size":
		lit := s.literal()
		if !jsonInt(lit) {
			return false
		}
		n, err := strconv.ParseInt(lit, 10, 64)
		if key == "size" {
			e.Size = n
		} else {
			e.DurationMS = n
		}
		return err == nil
	case "success":
		switch s.literal() {
		case "true":
			e.Success = &s.bools[1]
		case "false":
			e.Success = &s.bools[0]
		default:
			return false
		}
		return true
	case "started_at", "ended_at":
		v, ok := s.plainString()
		t, err := time.Parse(time.RFC3339Nano, v)
		if !ok || err != nil || t.Format(time.RFC3339Nano) != v {
			return false // encoding/json decides what is not the form Marshal writes
		}
		if key == "started_at" {
			e.Started = &t
		} else {
			e.Ended = &t
		}
		return true
	}
	return false
}

// stringField is the string field key names, or nil.
func stringField(key string, kind *string, e *Entry) *string {
	switch key {
	case "ops":
		return kind
	case "host":
		return &e.Host
	case "repo":
		return &e.Repo
	case "summary":
		return &e.Summary
	case "goal":
		return &e.Goal
	case "status":
		return &e.Status
	case "tool":
		return &e.Tool
	case "input":
		return &e.Input
	case "outcome":
		return &e.Outcome
	case "path":
		return &e.Path
	case "sha256":
		return &e.SHA256
	case "artifact_kind":
		return &e.ArtifactKind
	case "check":
		return &e.Check
	case "evidence_hash":
		return &e.EvidenceHash
	case "route_kind":
		return &e.RouteKind
	case "choice":
		return &e.Choice
	case "reason":
		return &e.Reason
	}
	return nil
}

// jsonInt reports whether b is a JSON integer: -?(0|[1-9][0-9]*).
func jsonInt(b string) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	for i := range len(b) {
		if c := b[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}
