package httpapi_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/jobs"
	"github.com/mneme-ai/mneme/ops"
	"github.com/mneme-ai/mneme/quality"
)

// conform checks v against a schema of the document: types, enums,
// required properties and no undocumented ones.
func conform(doc object, schema object, v any, at string) []string {
	schema = resolve(doc, schema)
	if alts, ok := schema["oneOf"].([]any); ok {
		for _, alt := range alts {
			if len(conform(doc, alt.(object), v, at)) == 0 {
				return nil
			}
		}
		return []string{at + ": fits none of oneOf"}
	}
	props, required, typ := properties(doc, schema)
	var errs []string
	switch x := v.(type) {
	case object:
		if typ != "object" {
			return []string{at + ": an object where the schema says " + typ}
		}
		for _, r := range required {
			if _, ok := x[r]; !ok {
				errs = append(errs, at+": required "+r+" is missing")
			}
		}
		for k, val := range x {
			sub, ok := props[k].(object)
			if ap, isSchema := schema["additionalProperties"].(object); !ok && isSchema {
				sub, ok = ap, true
			}
			switch {
			case ok:
				errs = append(errs, conform(doc, sub, val, at+"."+k)...)
			case props != nil || schema["additionalProperties"] == false:
				errs = append(errs, at+": "+k+" is not documented")
			}
		}
	case []any:
		if typ != "array" {
			return []string{at + ": an array where the schema says " + typ}
		}
		for i, item := range x {
			errs = append(errs, conform(doc, schema["items"].(object), item, fmt.Sprintf("%s[%d]", at, i))...)
		}
	default:
		kinds := map[string]bool{"string": isKind[string](v), "boolean": isKind[bool](v), "number": isKind[float64](v),
			"integer": isKind[float64](v) && v.(float64) == float64(int64(v.(float64)))}
		if !kinds[typ] {
			return []string{fmt.Sprintf("%s: %v is not a %s", at, v, typ)}
		}
		if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
			errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", at, v, enum))
		}
	}
	return errs
}

func isKind[T any](v any) bool { _, ok := v.(T); return ok }

func resolve(doc object, schema object) object {
	for {
		ref, ok := schema["$ref"].(string)
		if !ok {
			return schema
		}
		schema = doc["components"].(object)["schemas"].(object)[strings.TrimPrefix(ref, "#/components/schemas/")].(object)
	}
}

// properties merges a schema's properties and required names across allOf.
func properties(doc object, schema object) (props object, required []string, typ string) {
	schema = resolve(doc, schema)
	typ, _ = schema["type"].(string)
	if p, ok := schema["properties"].(object); ok {
		props = object{}
		for k, v := range p {
			props[k] = v
		}
	}
	reqs, _ := schema["required"].([]any)
	for _, r := range reqs {
		required = append(required, r.(string))
	}
	for _, part := range schemaList(schema["allOf"]) {
		p, r, t := properties(doc, part)
		if props == nil {
			props = object{}
		}
		for k, v := range p {
			props[k] = v
		}
		required, typ = append(required, r...), t
	}
	return props, required, typ
}

func schemaList(v any) []object {
	var out []object
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, s.(object))
	}
	return out
}

// TestOpenAPISchemas: each schema's properties are the json names of the
// Go type it documents, and its required ones those without omitempty (a
// request's field without omitempty is one it must send).
func TestOpenAPISchemas(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	doc := openAPI(t, e)
	types := map[string]any{
		"Record": mneme.Record{}, "Source": mneme.Source{}, "Link": mneme.Link{}, "RememberRequest": mneme.RememberRequest{},
		"RecallRequest": mneme.RecallRequest{}, "Hypothesis": mneme.Hypothesis{}, "Result": mneme.Result{},
		"RecallResponse": mneme.RecallResponse{}, "Hit": mneme.Hit{}, "Explain": mneme.Explain{}, "RerankExplain": mneme.RerankExplain{},
		"WriteResult": mneme.WriteResult{}, "ListPage": mneme.ListPage{}, "ForgetResult": mneme.ForgetResult{}, "ForgetFilter": mneme.ForgetFilter{}, "PruneRequest": mneme.PruneRequest{}, "PruneResult": mneme.PruneResult{}, "Patch": mneme.Patch{},
		"Stats": jobs.Stats{}, "JobEntry": jobs.Entry{}, "ProjectStats": mneme.ProjectStats{}, "Hint": mneme.Hint{},
		"QualityReport": quality.Report{}, "QualityStage": quality.Stage{}, "QualityLanes": quality.Lanes{}, "QualityScores": quality.Scores{},
		"QualitySummary": quality.Summary{}, "QualityContext": quality.Context{}, "QualityGround": quality.Ground{},
		"SummarizeRequest": consolidate.Request{}, "SummarizeResponse": consolidate.Response{}, "UsedFilters": consolidate.UsedFilters{},
		"OpsBatch": ops.Batch{}, "OpsEntry": ops.Entry{}, "OpsResult": ops.Result{}, "OpsPage": ops.Page{}, "OpsItem": ops.Item{},
		"PromoteRequest": mneme.PromoteRequest{}, "PromoteResult": mneme.PromoteResult{}, "Promotion": mneme.Promotion{}, "PromotedFrom": mneme.PromotedFrom{},
	}
	for name, v := range httpapi.BodyTypes {
		types[name] = v
	}
	schemas := doc["components"].(object)["schemas"].(object)
	for name, v := range types {
		s, ok := schemas[name].(object)
		if !ok {
			t.Errorf("no schema %s", name)
			continue
		}
		props, required, _ := properties(doc, s)
		fields, mandatory := jsonNames(reflect.TypeOf(v))
		if got := slices.Sorted(mapKeys(props)); !slices.Equal(got, fields) {
			t.Errorf("%s: schema properties %q, Go json fields %q", name, got, fields)
		}
		if slices.Sort(required); !slices.Equal(required, mandatory) {
			t.Errorf("%s: schema requires %q, Go fields without omitempty %q", name, required, mandatory)
		}
	}
	parse := map[string]func(string) error{
		"Type":        func(s string) error { _, err := mneme.ParseType(s); return err },
		"Status":      func(s string) error { _, err := mneme.ParseStatus(s); return err },
		"Sensitivity": func(s string) error { _, err := mneme.ParseSensitivity(s); return err },
		"Provenance":  func(s string) error { _, err := mneme.ParseProvenance(s); return err },
	}
	for name, p := range parse {
		for _, v := range schemas[name].(object)["enum"].([]any) {
			if err := p(v.(string)); err != nil {
				t.Errorf("enum %s: %v", name, err)
			}
		}
	}
}

func mapKeys(m object) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// jsonNames returns the sorted json names of t's fields (embedded structs
// flattened, as encoding/json does) and those without omitempty.
func jsonNames(t reflect.Type) (all, mandatory []string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			a, m := jsonNames(ft)
			all, mandatory = append(all, a...), append(mandatory, m...)
			continue
		}
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		all = append(all, name)
		if !strings.Contains(opts, "omitempty") {
			mandatory = append(mandatory, name)
		}
	}
	slices.Sort(all)
	slices.Sort(mandatory)
	return all, mandatory
}
