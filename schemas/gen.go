package schemas

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// Generate is the JSON Schema (draft 2020-12) of v's type as encoding/json
// writes and reads it: an object's properties are its json names
// (embedded structs flattened), required are those without omitempty
// (or omitzero), and
// nothing else is allowed. Named types it meets are $defs; enums come from
// the domain's closed sets.
func Generate(name string, v any) map[string]any {
	g := &gen{defs: map[string]any{}}
	root := g.schema(reflect.TypeOf(v), true)
	out := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"$id":     ID(name),
		"title":   name,
	}
	for k, val := range root {
		out[k] = val
	}
	if len(g.defs) > 0 {
		out["$defs"] = g.defs
	}
	return out
}

// ID is the $id of a published schema.
func ID(name string) string { return "https://mneme.dev/schemas/v1/" + name + ".json" }

// enums are the closed sets of the domain's string types.
var enums = map[reflect.Type][]string{
	reflect.TypeFor[mneme.Type]():        {"episodic", "semantic", "procedural"},
	reflect.TypeFor[mneme.Status]():      {"active", "superseded", "draft", "validated", "published"},
	reflect.TypeFor[mneme.Provenance]():  {"verified", "cited", "assumed", "cached"},
	reflect.TypeFor[mneme.Sensitivity](): {"public", "internal", "secret"},
}

type gen struct{ defs map[string]any }

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
	metaType = reflect.TypeFor[mneme.MetaFilter]() // an object of scalars in JSON (its own marshalers)
)

func (g *gen) schema(t reflect.Type, top bool) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == rawType:
		return map[string]any{} // any JSON value
	case t == metaType:
		return map[string]any{"type": []string{"object", "null"}, "additionalProperties": map[string]any{"type": []string{"string", "number", "boolean"}}}
	case enums[t] != nil:
		return map[string]any{"type": "string", "enum": enums[t]}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.schema(t.Elem(), top)
	case reflect.Struct:
		if top || t.Name() == "" {
			return g.object(t)
		}
		name := t.Name()
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = true // placeholder: a recursive type refers to itself
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": []string{"array", "null"}, "items": g.schema(t.Elem(), false)}
	case reflect.Map:
		return map[string]any{"type": []string{"object", "null"}, "additionalProperties": g.schema(t.Elem(), false)}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Interface:
		return map[string]any{}
	}
	panic("schemas: no JSON Schema for " + t.String())
}

func (g *gen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	required := []string{}
	g.fields(t, props, &required)
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func (g *gen) fields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			g.fields(ft, props, required)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		s := g.schema(f.Type, false)
		if f.Type.Kind() == reflect.Pointer && !optional {
			s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
		}
		props[name] = s
		if !optional {
			*required = append(*required, name)
		}
	}
}
