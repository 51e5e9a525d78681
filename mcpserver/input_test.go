package mcpserver

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestRecallInput checks each alias and list form over the wire (schema,
// decoding and mapping together) by what recall says it applied.
func TestRecallInput(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	call(t, cs, "remember", args{"text": "The release checklist lives in RELEASE.md.", "project": "shop", "tags": "release"})
	base := usedFilters{K: 10, Mode: "hybrid"}
	with := func(change func(*usedFilters)) usedFilters { u := base; change(&u); return u }
	for _, c := range []struct {
		name string
		args args
		want usedFilters
		err  string // a substring of the tool error; "" for success
	}{
		{"query", args{"query": "release"}, base, ""},
		{"query_text", args{"query_text": "release"}, base, ""},
		{"same value twice", args{"query": "release", "query_text": "release"}, base, ""},
		{"project_id", args{"query": "release", "project_id": "shop"}, with(func(u *usedFilters) { u.Project = "shop" }), ""},
		{"limit", args{"query": "release", "limit": 3}, with(func(u *usedFilters) { u.K = 3 }), ""},
		{"score_threshold", args{"query": "release", "score_threshold": 0.2}, with(func(u *usedFilters) { u.MinScore = 0.2 }), ""},
		{"types string", args{"query": "release", "types": "procedural"}, with(func(u *usedFilters) { u.Types = []mneme.Type{"procedural"} }), ""},
		{"type array", args{"query": "release", "type": []string{"episodic", "semantic"}}, with(func(u *usedFilters) { u.Types = []mneme.Type{"episodic", "semantic"} }), ""},
		{"memory_type", args{"query": "release", "memory_type": "semantic"}, with(func(u *usedFilters) { u.Types = []mneme.Type{"semantic"} }), ""},
		{"tags string", args{"query": "release", "tags": "b, a"}, with(func(u *usedFilters) { u.Tags = []string{"a", "b"} }), ""},
		{"tags one", args{"query": "release", "tags": "a"}, with(func(u *usedFilters) { u.Tags = []string{"a"} }), ""},
		{"tags array", args{"query": "release", "tags": []string{"a", "b"}}, with(func(u *usedFilters) { u.Tags = []string{"a", "b"} }), ""},
		{"lexical", args{"query": "release", "mode": "lexical"}, with(func(u *usedFilters) { u.Mode = "lexical" }), ""},
		{"conflicting query", args{"query": "release", "query_text": "deploy"}, base, "EINVALID: query and query_text are the same parameter with different values"},
		{"conflicting project", args{"query": "release", "project": "a", "project_id": "b"}, base, "EINVALID: project and project_id"},
		{"conflicting k", args{"query": "release", "k": 2, "limit": 3}, base, "EINVALID: k and limit"},
		{"conflicting types", args{"query": "release", "types": "episodic", "memory_type": "semantic"}, base, "EINVALID: types and memory_type"},
		{"conflicting since", args{"query": "release", "since": "7d", "time_range": args{"start": "2d"}}, base, "EINVALID: time_range.start and since"},
		{"unknown field", args{"query": "release", "topk": 3}, base, `EINVALID: unknown parameters ["topk"]; recall takes query, project, types, kinds, tags, meta, since, until, k, options {all_tags, statuses, mode,`},
		{"option", args{"query": "release", "options": args{"mode": "lexical", "min_score": 0.2}}, with(func(u *usedFilters) { u.Mode, u.MinScore = "lexical", 0.2 }), ""},
		{"option at the top", args{"query": "release", "mode": "lexical"}, with(func(u *usedFilters) { u.Mode = "lexical" }), ""},
		{"option both ways", args{"query": "release", "mode": "lexical", "options": args{"mode": "lexical"}}, with(func(u *usedFilters) { u.Mode = "lexical" }), ""},
		{"option null", args{"query": "release", "options": nil}, base, ""},
		{"option conflict", args{"query": "release", "mode": "vector", "options": args{"mode": "lexical"}}, base, "EINVALID: mode and options.mode are the same parameter with different values"},
		{"unknown option", args{"query": "release", "options": args{"topk": 3}}, base, "EINVALID: options.topk is not an option; recall takes query"},
		{"documented in options", args{"query": "release", "options": args{"k": 3}}, base, "EINVALID: options.k is not an option"},
		{"options not an object", args{"query": "release", "options": "mode=lexical"}, base, "EINVALID: options: type: mode=lexical has type \"string\", want \"object\""},
		{"bad option value", args{"query": "release", "options": args{"mode": "fuzzy"}}, base, "EINVALID: "},
		{"bad alias type", args{"query": "release", "limit": "five"}, base, "EINVALID: "},
		{"blank query", args{"query": " \n"}, base, "EINVALID: query is blank"},
		{"no query", args{"project": "shop"}, base, "EINVALID: query is blank"},
		{"tags number", args{"query": "release", "tags": 3}, base, "EINVALID: tags: type: 3 has type"},
		{"bad type", args{"query": "release", "types": "fact"}, base, "EINVALID: type \"fact\""},
		{"k too big", args{"query": "release", "k": 5000}, base, "EINVALID: k 5000 is out of range"},
		{"k zero", args{"query": "release", "k": 0}, base, "EINVALID: k 0 is out of range: use 1 to 1000"},
		{"limit zero", args{"query": "release", "limit": 0}, base, "EINVALID: limit 0 is out of range: use 1 to 1000"},
		{"k negative", args{"query": "release", "k": -3}, base, "EINVALID: k -3 is out of range: use 1 to 1000"},
		{"meta", args{"query": "release", "meta": args{"tenant": "acme", "document_version": 3}},
			with(func(u *usedFilters) {
				u.Meta = mneme.MetaFilter{{Key: "document_version", Value: "3"}, {Key: "tenant", Value: "acme"}}
			}), ""},
		{"meta object value", args{"query": "release", "meta": args{"tenant": args{"name": "acme"}}}, base, `EINVALID: meta: validating /properties/meta/additionalProperties: type: map[name:acme] has type "object"`},
		{"meta array value", args{"query": "release", "meta": args{"tenant": []string{"acme"}}}, base, `has type "array", want one of "string, number, boolean"`},
		{"meta null value", args{"query": "release", "meta": args{"tenant": nil}}, base, `has type "null", want one of "string, number, boolean"`},
		{"meta empty key", args{"query": "release", "meta": args{"": "acme"}}, base, "EINVALID: meta filter \"=acme\" has an empty key"},
		{"meta not an object", args{"query": "release", "meta": "tenant=acme"}, base, "EINVALID: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, "recall", c.args)
			if c.err != "" {
				if !res.IsError || !strings.Contains(text(res), c.err) {
					t.Fatalf("got %s; want an error containing %q", text(res), c.err)
				}
				return
			}
			var out recallOutput
			structured(t, res, &out)
			if !reflect.DeepEqual(out.UsedFilters, c.want) {
				t.Errorf("used_filters %+v, want %+v", out.UsedFilters, c.want)
			}
		})
	}
}

// TestRememberInput checks remember's aliases and tag forms by the stored
// record.
func TestRememberInput(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	for i, c := range []args{
		{"text": "one", "project_id": "p1", "memory_type": "procedural", "tags": "x,y"},
		{"text": "two", "project": "p1", "type": "procedural", "tags": []string{"y", "x"}},
	} {
		var w struct{ ID string }
		structured(t, call(t, cs, "remember", c), &w)
		var rec struct {
			Project, Type string
			Tags          []string
		}
		structured(t, call(t, cs, "get", args{"id": w.ID}), &rec)
		if rec.Project != "p1" || rec.Type != "procedural" || !slices.Equal(rec.Tags, []string{"x", "y"}) {
			t.Errorf("case %d: stored %+v", i, rec)
		}
	}
	if res := call(t, cs, "remember", args{"text": "three", "type": "episodic", "memory_type": "semantic"}); !strings.Contains(text(res), "EINVALID: type and memory_type") {
		t.Errorf("conflicting type: %s", text(res))
	}
}

// TestSchemaMatchesInput keeps the declared schemas and the decoded
// structs in step: every documented field is a property, aliases are not,
// and the options property names every option.
func TestSchemaMatchesInput(t *testing.T) {
	for name, typ := range toolTypes {
		props := inputSchema(typ)["properties"].(map[string]any)
		want := 0
		for n, role := range roles(typ) {
			switch role {
			case "":
				want++
				if props[n] == nil {
					t.Errorf("%s: %s is not in the schema", name, n)
				}
			case "alias":
				if props[n] != nil {
					t.Errorf("%s: alias %s is in the schema", name, n)
				}
			case "option":
				desc, _ := props["options"].(map[string]any)["description"].(string)
				if !regexp.MustCompile(`\b` + n + `\b`).MatchString(desc) {
					t.Errorf("%s: option %s is not named in options: %q", name, n, desc)
				}
			default:
				t.Errorf("%s: %s has an unknown role %q", name, n, role)
			}
		}
		if len(props) != want {
			t.Errorf("%s: schema has %d properties, struct %d documented fields", name, len(props), want)
		}
	}
}
