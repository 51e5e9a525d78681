package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
)

// Decode reads a batch from its JSON, strictly: unknown fields, nulls,
// wrong types and invalid UTF-8 are refused with the entry and field
// named (encoding/json would drop a null and replace bad UTF-8 silently).
func Decode(data []byte) (Batch, error) {
	var b Batch
	if len(data) > MaxRequestBytes {
		return b, mneme.Invalid("the batch is %d bytes, over the limit of %d: split it", len(data), MaxRequestBytes)
	}
	var top map[string]json.RawMessage
	if err := mneme.DecodeStrict(data, &top); err != nil {
		return b, err
	}
	if top == nil {
		return b, mneme.Invalid("the batch is null: send {\"entries\": [...]}")
	}
	for name, raw := range top {
		switch {
		case !slices.Contains([]string{"project", "entries", "redact"}, name):
			return b, mneme.Invalid("unknown field %q: allowed fields are project, entries, redact", mneme.Clip(name))
		case isNull(raw):
			return b, mneme.Invalid("field %q is null: leave it out or give a value", name)
		case name != "entries" && !utf8.Valid(raw): // rows name their own field
			return b, mneme.Invalid("field %q is not valid UTF-8", name)
		}
	}
	if err := decodeTop(top, &b); err != nil {
		return b, err
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(top["entries"], &rows); err != nil {
		return b, mneme.Invalid("field \"entries\" must be an array of objects")
	}
	if len(rows) > MaxEntries {
		return b, mneme.Invalid("%d entries, over the limit of %d per batch: split the batch", len(rows), MaxEntries)
	}
	b.Entries = make([]Entry, len(rows))
	for i, raw := range rows {
		if err := decodeEntry(i, raw, &b.Entries[i]); err != nil {
			return b, err
		}
	}
	return b, nil
}

func decodeTop(top map[string]json.RawMessage, b *Batch) error {
	if raw, ok := top["project"]; ok && json.Unmarshal(raw, &b.Project) != nil {
		return mneme.Invalid("field \"project\" must be a string")
	}
	if raw, ok := top["redact"]; ok && json.Unmarshal(raw, &b.Redact) != nil {
		return mneme.Invalid("field \"redact\" must be true or false")
	}
	if _, ok := top["entries"]; !ok {
		return mneme.Invalid("field \"entries\" is missing: send {\"entries\": [...]}")
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// decodeEntry decodes row i field by field, so an error names the field.
func decodeEntry(i int, raw json.RawMessage, e *Entry) error {
	if isNull(raw) {
		return fieldErr(i, "", "null: every entry is an object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return &mneme.Error{Code: mneme.EINVALID, Message: fmt.Sprintf("entries[%d]: must be an object; nothing was written", i),
			Err: &mneme.BatchError{Index: i, Err: &FieldError{Index: i, Msg: "must be an object"}}}
	}
	v := reflect.ValueOf(e).Elem()
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range fields {
			if !yield(n) {
				return
			}
		}
	})
	for _, name := range names {
		val := fields[name]
		idx, ok := entryFields[name]
		switch {
		case !utf8.ValidString(name):
			return fieldErr(i, strings.ToValidUTF8(name, "?"), "field name is not valid UTF-8")
		case !ok:
			return fieldErr(i, mneme.Clip(name), "unknown field")
		case isNull(val):
			return fieldErr(i, name, "null: leave the field out or give a value")
		case !utf8.Valid(val):
			return fieldErr(i, name, "not valid UTF-8")
		}
		if err := json.Unmarshal(val, v.Field(idx).Addr().Interface()); err != nil {
			return fieldErr(i, name, "must be %s", want(v.Field(idx).Type()))
		}
	}
	return nil
}

// want names the JSON a field of type t takes.
func want(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[*time.Time]():
		return "an RFC 3339 time, like 2026-01-02T15:04:05Z"
	case t.Kind() == reflect.Pointer:
		return want(t.Elem())
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Int64:
		return "a whole number"
	case t.Kind() == reflect.Bool:
		return "true or false"
	}
	return t.String()
}
