package mneme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// RecallRequest is the JSON form of a recall: request files, batch lines
// and (later) HTTP bodies share it.
type RecallRequest struct {
	ID                string     `json:"id,omitempty"` // echoed back in batch results
	Query             string     `json:"query"`
	Project           string     `json:"project,omitempty"`
	Types             []Type     `json:"types,omitempty"`
	Kinds             []string   `json:"kinds,omitempty"`
	Tags              []string   `json:"tags,omitempty"`
	AllTags           bool       `json:"all_tags,omitempty"`
	Meta              MetaFilter `json:"meta,omitempty"`     // top-level meta values every hit has, like {"tenant":"acme"}
	Statuses          []Status   `json:"statuses,omitempty"` // like validated,published: reusable records only
	Since             string     `json:"since,omitempty"`
	Until             string     `json:"until,omitempty"`
	Session           string     `json:"session,omitempty"` // only this session's records
	Run               string     `json:"run,omitempty"`     // only this run's records
	K                 Count      `json:"k,omitempty"`
	Explain           bool       `json:"explain,omitempty"`
	Report            bool       `json:"report,omitempty"` // add a content-free quality report
	IncludeSuperseded bool       `json:"include_superseded,omitempty"`

	Mode   Mode    `json:"mode,omitempty"`
	Fusion Fusion  `json:"fusion,omitempty"`
	Alpha  float64 `json:"alpha,omitempty"`
	// Profile names a ranking profile of config.json's ranking.profiles
	// (Query.Profile); an unknown one is refused, naming the known ones.
	Profile  string  `json:"profile,omitempty"`
	MinScore float64 `json:"min_score,omitempty"`
	// IncludeUnmatched also returns hits without evidence (Query).
	IncludeUnmatched bool         `json:"include_unmatched,omitempty"`
	NoFeedback       bool         `json:"no_feedback,omitempty"` // Query.NoFeedback
	Rerank           bool         `json:"rerank,omitempty"`
	MMR              float64      `json:"mmr,omitempty"`
	Expand           int          `json:"expand,omitempty"`
	HalfLife         string       `json:"half_life,omitempty"` // like 30d
	HyDE             *HyDERequest `json:"hyde,omitempty"`
}

// HyDERequest is a request's hyde field: true to have a hypothesis
// generated, or an object supplying one
// ({"hypothesis", "query", "generator_id", "generator_version"}; query
// is the query it was written for, which must be the request's).
type HyDERequest struct {
	Generate   bool
	Hypothesis *Hypothesis
}

// UnmarshalJSON accepts true, false or a hypothesis object.
func (h *HyDERequest) UnmarshalJSON(data []byte) error {
	switch string(bytes.TrimSpace(data)) {
	case "true":
		h.Generate = true
		return nil
	case "false", "null":
		return nil
	}
	h.Hypothesis = &Hypothesis{}
	if err := DecodeStrict(data, h.Hypothesis); err != nil {
		return Invalid("hyde: %s (or send true to have one generated)", rawMessage(err))
	}
	return h.Hypothesis.Check()
}

// Count is a number of hits: given, it is 1 to MaxK; left out (0), the
// default. An explicit 0 is refused on every surface rather than read as
// "the default".
type Count int

// UnmarshalJSON refuses numbers out of range, 0 included.
func (c *Count) UnmarshalJSON(b []byte) error {
	if string(b) == "null" { // as if left out
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return Invalid("field \"k\" must be a number, not %s: a whole number from 1 to %d", jsonValueKind(b), MaxK)
	}
	if err := CheckCount("k", n); err != nil {
		return err
	}
	*c = Count(n)
	return nil
}

// CheckCount is the rule for a number of hits given as field: 1 to MaxK.
func CheckCount(field string, n int) error {
	if n < 1 || n > MaxK {
		return Invalid("%s %d is out of range: use 1 to %d, or leave {{%s}} out for %d", field, n, MaxK, field, DefaultK)
	}
	return nil
}

// jsonValueKind names the kind of a JSON value, like encoding/json's type
// errors do.
func jsonValueKind(b []byte) string {
	switch b = bytes.TrimSpace(b); {
	case len(b) == 0:
		return "nothing"
	case b[0] == '"':
		return "string"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	case b[0] == '{':
		return "object"
	case b[0] == '[':
		return "array"
	case b[0] == 'n':
		return "null"
	}
	return Clip(string(b))
}

// DefaultK is the number of hits a recall returns when k is not given.
const DefaultK = 10

// ToQuery converts the request into a Query at clearance.
func (r *RecallRequest) ToQuery(now time.Time, clearance Sensitivity) (Query, error) {
	q := Query{Text: r.Query, K: int(r.K), Explain: r.Explain, Report: r.Report, Filter: Filter{
		Project: r.Project, Types: r.Types, Kinds: r.Kinds, Tags: r.Tags, AllTags: r.AllTags, Meta: r.Meta, Statuses: r.Statuses,
		SessionID: r.Session, RunID: r.Run, IncludeSuperseded: r.IncludeSuperseded, Clearance: clearance},
		Mode: r.Mode, Fusion: r.Fusion, Alpha: r.Alpha, Profile: r.Profile, MinScore: r.MinScore, IncludeUnmatched: r.IncludeUnmatched, NoFeedback: r.NoFeedback, Rerank: r.Rerank, MMR: r.MMR, Expand: r.Expand}
	if q.K == 0 {
		q.K = DefaultK
	}
	if r.HyDE != nil {
		q.HyDE, q.Hypothesis = r.HyDE.Generate, r.HyDE.Hypothesis
	}
	if r.HalfLife != "" {
		d, err := ParseDuration(r.HalfLife)
		if err != nil || d <= 0 {
			return q, Invalid("half_life %q is not a positive duration: use forms like 30d, 2w or 72h", Clip(r.HalfLife))
		}
		q.HalfLife = d
	}
	for _, b := range []struct {
		field string
		in    string
		out   **time.Time
	}{{"since", r.Since, &q.Filter.Since}, {"until", r.Until, &q.Filter.Until}} {
		if b.in == "" {
			continue
		}
		t, err := ParseTime(b.field, b.in, now)
		if err != nil {
			return q, err
		}
		*b.out = &t
	}
	if err := q.Filter.Check(); err != nil {
		return q, err
	}
	checked := q // the defaults stay unset: the Engine fills the deployment's (RecallDefaults) first
	return q, checked.check()
}

// DecodeStrict decodes exactly one JSON value from data into v, rejecting
// unknown fields, wrong types and trailing data with messages that say what
// to send instead.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return explainJSON(err, v, data)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Invalid("unexpected data after the JSON object: send one object")
	}
	return nil
}

func explainJSON(err error, v any, data []byte) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var timeErr *time.ParseError
	var ours *Error
	switch {
	case errors.As(err, &ours): // from a field's own decoder: already says what to send
		return ours
	case errors.As(err, &timeErr):
		return Invalid("time %q is not RFC 3339: write times like 2026-01-02T15:04:05Z", Clip(strings.Trim(timeErr.Value, `"`)))
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return Invalid("expected a JSON object, got %s", Clip(typeErr.Value))
		}
		return Invalid("field %q must be %s, not %s", Clip(typeErr.Field), jsonKind(typeErr.Type), Clip(typeErr.Value))
	case errors.As(err, &syntaxErr):
		return Invalid("invalid JSON at byte %d: %v", syntaxErr.Offset, err)
	case errors.Is(err, io.EOF):
		return Invalid("empty input: send a JSON object")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		name, _ := strconv.Unquote(field)
		where := ""
		path, fields := unknownField(data, v, name)
		if path != "" {
			where = " in " + Clip(path)
		}
		return Invalid("unknown field %s%s: allowed fields are %s", Clip(field), where, strings.Join(fields, ", "))
	}
	return Invalid("invalid JSON: %v", err)
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return fmt.Sprintf("a %s", t)
}

// SplitList reads list values as every surface accepts them: each value
// may be a comma list ("a,b"); blanks are dropped.
func SplitList(values ...string) []string {
	var out []string
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}
