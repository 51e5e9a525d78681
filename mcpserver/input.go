package mcpserver

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// list is a string-or-array parameter: "a,b", "a" or ["a", "b"]. Values
// are split on commas like the CLI's list flags, so both forms give the
// same filter.
type list []string

func (l *list) UnmarshalJSON(b []byte) error {
	var one string
	var many []string
	if err := json.Unmarshal(b, &one); err == nil {
		many = []string{one}
	} else if err := json.Unmarshal(b, &many); err != nil {
		return mneme.Invalid("expected a string like \"a,b\" or an array of strings, not %s", mneme.Clip(string(b)))
	}
	*l = mneme.SplitList(many...)
	return nil
}

// field is one spelling of a parameter and the value sent under it.
type field[T any] struct {
	name string
	val  T
}

func f[T any](name string, val T) field[T] { return field[T]{name, val} }

// pick returns the value given under a parameter's name or its aliases,
// and records the first error in *err. Two spellings with different values
// are an error: guessing which one the caller meant would hide its bug.
func pick[T any](err *error, fields ...field[T]) T {
	var out T
	from := ""
	for _, fl := range fields {
		if reflect.ValueOf(&fl.val).Elem().IsZero() {
			continue
		}
		if from != "" && !reflect.DeepEqual(fl.val, out) && *err == nil {
			*err = mneme.Invalid("%s and %s are the same parameter with different values: send only %s", from, fl.name, fields[0].name)
		}
		out, from = fl.val, fl.name
	}
	return out
}

func types(l list) []mneme.Type {
	if len(l) == 0 {
		return nil
	}
	out := make([]mneme.Type, len(l))
	for i, t := range l {
		out[i] = mneme.Type(t)
	}
	return out
}

func statuses(l list) []mneme.Status {
	var out []mneme.Status
	for _, st := range l {
		out = append(out, mneme.Status(st))
	}
	return out
}

// fields are the struct t's parameters in order, an embedded struct's in
// its place.
func fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, sf := range reflect.VisibleFields(t) {
		if !sf.Anonymous {
			out = append(out, sf)
		}
	}
	return out
}

// fieldNames lists the JSON names of the struct t's fields, for messages.
func fieldNames(t reflect.Type) []string {
	var names []string
	for _, sf := range fields(t) {
		if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// inputSchema builds the JSON schema of a tool's input struct: property
// descriptions from the jsonschema tag (as the SDK reads them), enums from
// the enum tag, required unless omitempty. Hand-built rather than inferred
// because aliases take a string or an array, which inference cannot say.
// Every token of it is spent in each agent's context on every turn, so
// only the documented parameters are in it: aliases (mcp:"alias") are
// accepted but not published, and options (mcp:"option") are one options
// object whose description names them. That is also why the schema does
// not refuse other properties: arguments (params.go) does.
func inputSchema(t reflect.Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	var opts []string
	for _, sf := range fields(t) {
		name, opts0, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch sf.Tag.Get("mcp") {
		case "alias":
			continue
		case "option":
			opts = append(opts, optionHint(name, sf))
			continue
		}
		p := typeSchema(sf.Type)
		if d := sf.Tag.Get("jsonschema"); d != "" {
			p["description"] = d
		}
		if m, err := strconv.Atoi(sf.Tag.Get("min")); err == nil {
			p["minimum"] = m
		}
		if e := sf.Tag.Get("enum"); e != "" {
			target := p
			if sf.Type == reflect.TypeFor[list]() {
				target = p["items"].(map[string]any)
			}
			target["enum"] = strings.Split(e, ",")
		}
		props[name] = p
		if !slices.Contains(strings.Split(opts0, ","), "omitempty") {
			required = append(required, name)
		}
	}
	if len(opts) > 0 {
		props["options"] = map[string]any{"type": "object", "description": "rarely needed: " + strings.Join(opts, ", ")}
	}
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// optionHint is an option as its tool's options description names it:
// the name, and its values when they are a fixed set.
func optionHint(name string, sf reflect.StructField) string {
	if e := sf.Tag.Get("enum"); e != "" {
		return name + " (" + strings.ReplaceAll(e, ",", "|") + ")"
	}
	return name
}

func typeSchema(t reflect.Type) map[string]any {
	switch t {
	case reflect.TypeFor[list]():
		return map[string]any{"type": []string{"string", "array"}, "items": map[string]any{"type": "string"}}
	case reflect.TypeFor[[]json.RawMessage]():
		return map[string]any{"type": "array", "items": map[string]any{"type": "object"}}
	case reflect.TypeFor[mneme.MetaFilter]():
		return map[string]any{"type": "object", "additionalProperties": map[string]any{"type": []string{"string", "number", "boolean"}}}
	case reflect.TypeFor[*mneme.HyDERequest]():
		str := map[string]any{"type": "string"}
		return map[string]any{"type": []string{"boolean", "object"}, "additionalProperties": false,
			"properties": map[string]any{"hypothesis": str, "query": str, "generator_id": str, "generator_version": str},
			"required":   []string{"hypothesis", "query", "generator_id"}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return typeSchema(t.Elem())
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Int:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Map:
		return map[string]any{"type": "object"}
	case reflect.Struct:
		return inputSchema(t)
	}
	panic("mcpserver: no schema for " + t.String())
}
