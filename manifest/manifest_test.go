package manifest_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/manifest"
	"github.com/mneme-ai/mneme/schemas"
)

var update = flag.Bool("update", false, "rewrite schemas/v1 from the Go types")

// TestSchemasMatchGoTypes: every schema under schemas/v1 is what the Go
// type it documents generates (properties are its json names, required
// those without omitempty, nothing else allowed), and there is one per
// published type, no other. go test ./manifest -run Schemas -update
// rewrites them.
func TestSchemasMatchGoTypes(t *testing.T) {
	dir := filepath.Join("..", "schemas", "v1")
	for name, v := range manifest.Published {
		want, _ := json.MarshalIndent(schemas.Generate(name, v), "", "  ")
		want = append(want, '\n')
		file := filepath.Join(dir, name+".json")
		if *update {
			os.WriteFile(file, want, 0o644)
			continue
		}
		got, err := os.ReadFile(file)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s does not match the Go type (go test ./manifest -run Schemas -update): %v", file, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := manifest.Published[strings.TrimSuffix(e.Name(), ".json")]; !ok {
			t.Errorf("%s documents no published type", e.Name())
		}
	}
}

// TestGoldenExamples: every published schema has a golden example under
// examples/v1, and it validates.
func TestGoldenExamples(t *testing.T) {
	for name := range manifest.Published {
		var schema map[string]any
		if err := json.Unmarshal(schemas.All()[name], &schema); err != nil {
			t.Fatalf("schema %s: %v", name, err)
		}
		data, err := os.ReadFile(filepath.Join("..", "examples", "v1", name+".json"))
		if err != nil {
			t.Errorf("no golden example for %s: %v", name, err)
			continue
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("example %s: %v", name, err)
			continue
		}
		if errs := validate(schema, schema, v, name); len(errs) > 0 {
			t.Errorf("example %s does not validate:\n%s", name, strings.Join(errs, "\n"))
		}
	}
}

// TestValidatorRefuses: the validator is not a yes-machine.
func TestValidatorRefuses(t *testing.T) {
	var schema map[string]any
	json.Unmarshal(schemas.All()["ErrorEnvelope"], &schema)
	for _, bad := range []string{`{}`, `{"error":{"code":"EINVALID"}}`, `{"error":{"code":"E","message":"m","extra":1}}`, `{"error":{"code":1,"message":"m"}}`, `[]`} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if len(validate(schema, schema, v, "")) == 0 {
			t.Errorf("%s validated", bad)
		}
	}
	json.Unmarshal(schemas.All()["Record"], &schema)
	var rec any
	json.Unmarshal([]byte(`{"id":"x","project":"p","type":"dream","text":"t","tags":[],"created_at":"","updated_at":"","status":"active","sensitivity":"internal","content_hash":"h"}`), &rec)
	if len(validate(schema, schema, rec, "")) == 0 {
		t.Error("a record of type dream validated")
	}
}

// TestBuild: the manifest lists the MCP tools, the HTTP routes with their
// schemas, and carries every published schema.
func TestBuild(t *testing.T) {
	m, err := manifest.Build(context.Background(), "test", []manifest.Command{{Name: "recall", Response: "RecallResponse"}})
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tool := range m.MCP.Tools {
		tools = append(tools, tool.Name)
		if len(tool.InputSchema) == 0 {
			t.Errorf("tool %s has no input schema", tool.Name)
		}
	}
	for _, want := range []string{"remember", "recall", "context", "forget"} {
		if !slices.Contains(tools, want) {
			t.Errorf("no MCP tool %s in %v", want, tools)
		}
	}
	found := false
	for _, r := range m.HTTPRoutes {
		found = found || r.Method == "POST" && r.Path == "/v1/recall" && r.Request == "RecallRequest"
	}
	if !found || len(m.MCP.Resources) == 0 || len(m.Schemas) != len(manifest.Published) {
		t.Fatalf("routes %v, resources %d, schemas %d", m.HTTPRoutes, len(m.MCP.Resources), len(m.Schemas))
	}
	var schema map[string]any
	json.Unmarshal(m.Schemas["ServiceManifest"], &schema)
	b, _ := json.Marshal(m)
	var v any
	json.Unmarshal(b, &v)
	if errs := validate(schema, schema, v, "manifest"); len(errs) > 0 {
		t.Fatalf("the manifest does not validate against its own schema: %v", errs)
	}
}

// validate checks v against the subset of JSON Schema that Generate
// writes: type (one or a list), enum, properties, required,
// additionalProperties, items, anyOf, $ref into $defs.
func validate(root, s map[string]any, v any, at string) []string {
	if ref, ok := s["$ref"].(string); ok {
		def := root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")]
		return validate(root, def.(map[string]any), v, at)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if len(validate(root, a.(map[string]any), v, at)) == 0 {
				return nil
			}
		}
		return []string{at + ": fits none of anyOf"}
	}
	if t, ok := s["type"]; ok && !typeIs(t, v) {
		return []string{fmt.Sprintf("%s: %v is not %v", at, v, t)}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		return []string{fmt.Sprintf("%s: %v is not one of %v", at, v, enum)}
	}
	var errs []string
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := x[r.(string)]; !ok {
				errs = append(errs, at+": required "+r.(string)+" is missing")
			}
		}
		for k, val := range x {
			if p, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(root, p, val, at+"."+k)...)
			} else if ap, ok := s["additionalProperties"].(map[string]any); ok {
				errs = append(errs, validate(root, ap, val, at+"."+k)...)
			} else if s["additionalProperties"] == false {
				errs = append(errs, at+": "+k+" is not allowed")
			}
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, it := range x {
				errs = append(errs, validate(root, items, it, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	return errs
}

func typeIs(t any, v any) bool {
	if list, ok := t.([]any); ok {
		for _, one := range list {
			if typeIs(one, v) {
				return true
			}
		}
		return false
	}
	switch x := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case float64:
		return t == "number" || t == "integer" && x == float64(int64(x))
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}
