package mneme

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// unknownField finds the object of data, decoded into v, that holds the
// unknown field name: its path ("" for the top, like "citations[1]") and
// its fields, those of the structs it embeds included.
func unknownField(data []byte, v any, name string) (path string, fields []string) {
	t := reflect.TypeOf(v)
	var doc any
	if json.Unmarshal(data, &doc) == nil {
		if path, fields, ok := findUnknown(doc, t, name, ""); ok {
			return path, fields
		}
	}
	return "", fieldNames(structFields(t))
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// findUnknown walks doc as it decodes into t, to the first object (in key
// order) with a key named name that t's struct there lacks.
func findUnknown(doc any, t reflect.Type, name, path string) (string, []string, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		return "", nil, false // decoded by its own rules
	}
	switch d := doc.(type) {
	case map[string]any:
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range d {
				if !yield(k) {
					return
				}
			}
		})
		switch t.Kind() {
		case reflect.Struct:
			fs := structFields(t)
			for _, k := range keys {
				f, ok := lookupField(fs, k)
				if !ok {
					if k == name {
						return path, fieldNames(fs), true
					}
					continue
				}
				if p, n, ok := findUnknown(d[k], f.typ, name, joinPath(path, f.name)); ok {
					return p, n, true
				}
			}
		case reflect.Map:
			for _, k := range keys {
				if p, n, ok := findUnknown(d[k], t.Elem(), name, joinPath(path, k)); ok {
					return p, n, true
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range d {
				if p, n, ok := findUnknown(e, t.Elem(), name, fmt.Sprintf("%s[%d]", path, i)); ok {
					return p, n, true
				}
			}
		}
	}
	return "", nil, false
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// structFields are the JSON fields of struct t (through pointers), in
// order, the fields of embedded structs in their place.
func structFields(t reflect.Type) []jsonField {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			out = append(out, structFields(f.Type)...)
		case !f.IsExported():
		case name == "":
			out = append(out, jsonField{f.Name, f.Type})
		default:
			out = append(out, jsonField{name, f.Type})
		}
	}
	return out
}

// lookupField finds key among fs as encoding/json does: the exact name,
// else one equal under case folding.
func lookupField(fs []jsonField, key string) (jsonField, bool) {
	for _, f := range fs {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fs {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return jsonField{}, false
}

func fieldNames(fs []jsonField) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return names
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
