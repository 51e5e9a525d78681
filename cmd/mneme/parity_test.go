package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// args are a request in JSON field terms, as HTTP and MCP take it.
type args = map[string]any

// surface runs one use case (remember, recall, get, list, forget, stats)
// and returns its result as JSON, or the error's code.
type surface interface {
	do(t *testing.T, op string, in args) (out any, code string)
}

// TestSurfaceParity runs the same requests through the CLI, `mneme serve`
// and `mneme mcp`, each over its own home, and wants the same results and
// the same refusals from all three.
func TestSurfaceParity(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "hash")
	// Each home names a ranking profile a request may choose.
	ranking := `"ranking":{"profiles":{"rrf":{"fusion":"rrf"}}}`
	surfaces := map[string]surface{"cli": &cliSurface{home: homeWith(t, "{"+ranking+"}")},
		"http": &httpSurface{serve(t, homeWith(t, "{"+ranking+"}"))},
		"mcp":  mcpSurfaceAt(t, homeWith(t, `{"mcp":{"tools":"all"},`+ranking+"}"))}
	ids := map[string]map[string]string{} // surface -> name -> id
	for name := range surfaces {
		ids[name] = map[string]string{}
	}
	saved := map[string]map[string]any{} // surface -> name -> a result kept for a later step
	steps := []struct {
		op, save string
		in       func(ids map[string]string) args
		code     string
	}{
		{"remember", "A", fixed(args{"text": "Deploys go out on Tuesdays after the freeze.", "project": "shop", "tags": []string{"deploy"},
			"title": "Deploy day", "kind": "decision", "meta": args{"by": "ada"}}), ""},
		{"remember", "B", fixed(args{"text": "The staging database runs Postgres 17.", "project": "shop", "tags": []string{"db"}, "key": "staging-db"}), ""},
		{"remember", "", fixed(args{"text": "Blog posts are reviewed by two editors.", "project": "blog", "tags": []string{"editorial"}}), ""},
		{"remember", "", fixed(args{"text": "Deploys go out on Tuesdays after the freeze.", "project": "shop", "tags": []string{"release"}}), ""}, // keeps title, kind, meta
		{"recall", "", fixed(args{"query": "when do deploys go out", "project": "shop", "k": 3}), ""},
		{"recall", "", fixed(args{"query": "when do deploys go out", "project": "shop", "k": 3, "include_unmatched": true}), ""},
		{"context", "package P", fixed(args{"query": "when do deploys go out", "project": "shop", "budget": 200}), ""},
		{"ground", "", nil, ""}, // of an answer against package P (below)
		{"get", "", func(ids map[string]string) args { return args{"id": ids["A"]} }, ""},
		{"list", "", fixed(args{"project": "shop"}), ""},
		{"stats", "", fixed(args{}), ""},
		// Metadata filters: exact top-level values, all must hold; a number matches its text (the CLI's --meta).
		{"remember", "C", fixed(args{"text": "Tenant acme deploys need a change ticket.", "project": "shop", "meta": args{"tenant": "acme", "document_version": "3"}}), ""},
		{"recall", "", fixed(args{"query": "deploys", "project": "shop", "meta": args{"tenant": "acme"}, "include_unmatched": true}), ""},
		{"recall", "", fixed(args{"query": "deploys", "meta": args{"tenant": "acme", "document_version": "3"}}), ""},
		{"recall", "", fixed(args{"query": "deploys", "meta": args{"tenant": "acme", "document_version": 4}}), ""},
		{"recall", "", fixed(args{"query": "deploys", "meta": args{"by": "ada"}, "include_unmatched": true}), ""},
		{"context", "", fixed(args{"query": "deploys", "project": "shop", "budget": 200, "meta": args{"tenant": "acme"}}), ""},
		{"list", "", fixed(args{"project": "shop", "meta": args{"document_version": 3}}), ""},
		{"forget", "", fixed(args{"meta": args{"tenant": "acme"}, "dry_run": true}), ""},
		{"prune", "", fixed(args{"project": "shop", "meta": args{"tenant": "acme"}, "statuses": []string{"active"}, "dry_run": true}), ""},
		{"recall", "", fixed(args{"query": "deploys", "meta": args{"": "acme"}}), "EINVALID"},
		{"forget", "", fixed(args{"meta": args{" ": "x"}}), "EINVALID"},
		{"promote", "R", func(ids map[string]string) args {
			return args{"ids": []string{ids["A"]}, "to": "procedural", "title": "When we deploy"}
		}, ""},
		{"promote", "", func(ids map[string]string) args { return args{"ids": []string{ids["A"]}, "to": "procedural"} }, ""}, // unchanged
		{"promote", "", func(ids map[string]string) args {
			return args{"ids": []string{ids["B"]}, "to": "semantic", "status": "published"}
		}, ""},
		{"recall", "", fixed(args{"query": "when do deploys go out", "project": "shop", "statuses": []string{"validated", "published"}}), ""},
		{"context", "", fixed(args{"query": "when do deploys go out", "project": "shop", "budget": 300, "reusable": 2}), ""},
		{"link", "", func(ids map[string]string) args { return args{"from": ids["A"], "to": ids["B"], "rel": "relates_to"} }, ""},
		{"link", "", func(ids map[string]string) args { return args{"from": ids["A"], "to": ids["B"], "rel": "relates_to"} }, ""}, // unchanged
		{"recall", "", fixed(args{"query": "when do deploys go out", "project": "shop", "k": 1, "expand": 1, "explain": true}), ""},
		// B's hit brings A, which links to it: an incoming expansion, in explain and in the package.
		{"recall", "", fixed(args{"query": incomingQuery, "project": "shop", "k": 1, "expand": 1, "explain": true}), ""},
		{"context", "", fixed(args{"query": incomingQuery, "project": "shop", "budget": 300, "expand": 1}), ""},
		{"unlink", "", func(ids map[string]string) args { return args{"from": ids["A"], "to": ids["B"], "rel": "relates_to"} }, ""},
		// A ranking profile of config.json chosen per request; an unknown one is refused.
		{"recall", "", fixed(args{"query": "when do deploys go out", "project": "shop", "k": 2, "profile": "rrf", "explain": true}), ""},
		{"context", "", fixed(args{"query": "when do deploys go out", "project": "shop", "budget": 200, "profile": "rrf"}), ""},
		{"recall", "", fixed(args{"query": "deploys", "profile": "nope"}), "EINVALID"},
		// The vector lane asks the question as the speaker it names would (vector_query).
		{"remember", "", fixed(args{"text": "I play the violin and the clarinet.", "project": "chat", "speaker": "Melanie"}), ""},
		{"recall", "", fixed(args{"query": "What instruments does Melanie play?", "project": "chat", "k": 2}), ""},
		{"context", "", fixed(args{"query": "deploys", "profile": "nope"}), "EINVALID"},
		{"prune", "", fixed(args{"project": "shop", "statuses": []string{"published"}, "dry_run": true}), ""},
		{"prune", "", fixed(args{"project": "shop", "expired": true}), ""},
		{"forget", "", fixed(args{"project": "shop", "kinds": []string{"decision"}, "dry_run": true}), ""},
		{"forget", "", func(ids map[string]string) args { return args{"ids": []string{ids["B"], ids["B"]}} }, ""},
		{"list", "", fixed(args{"project": "shop"}), ""},
		// Refusals.
		{"remember", "", fixed(args{"text": " "}), "EINVALID"},
		{"remember", "", fixed(args{"text": "the deploy key is AKIAIOSFODNN7EXAMPLE"}), "EINVALID"},
		{"remember", "", fixed(args{"text": "x", "type": "opinion"}), "EINVALID"},
		{"recall", "", fixed(args{"query": "deploys", "project": "Not A Project"}), "EINVALID"},
		{"recall", "", fixed(args{"query": "deploys", "k": 0}), "EINVALID"}, // 0 is not "the default" anywhere
		{"context", "", fixed(args{"query": "deploys", "budget": 10}), "EINVALID"},
		{"context", "", fixed(args{"query": "deploys", "budget": 100_001}), "EINVALID"},
		{"ground", "", fixed(args{"package": args{"text": 1}, "answer": "Deploys go out on Tuesdays."}), "EINVALID"},
		{"get", "", fixed(args{"id": "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}), "ENOTFOUND"},
		{"get", "", fixed(args{"id": "nope"}), "EINVALID"},
		{"forget", "", fixed(args{}), "EINVALID"},
		{"prune", "", fixed(args{"project": "shop"}), "EINVALID"},
		{"promote", "", fixed(args{"ids": []string{"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}, "to": "semantic"}), "ENOTFOUND"},
		{"promote", "", func(ids map[string]string) args { return args{"ids": []string{ids["A"]}, "to": "episodic"} }, "EINVALID"},
		{"promote", "", func(ids map[string]string) args {
			return args{"ids": []string{ids["A"]}, "to": "semantic", "status": "active"}
		}, "EINVALID"},
		{"recall", "", fixed(args{"query": "deploys", "statuses": []string{"checked"}}), "EINVALID"},
		{"forget", "", fixed(args{"ids": []string{"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}}), "ENOTFOUND"},
		{"link", "", func(ids map[string]string) args {
			return args{"from": ids["A"], "to": "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "rel": "relates_to"}
		}, "EINVALID"},
		{"link", "", func(ids map[string]string) args { return args{"from": ids["A"], "to": ids["R"], "rel": "inspired_by"} }, "EINVALID"},
		{"unlink", "", func(ids map[string]string) args { return args{"from": ids["A"], "to": "nope"} }, "EINVALID"},
		{"context", "", fixed(args{"query": "deploys", "reusable": 51}), "EINVALID"},
	}
	for i, st := range steps {
		results := map[string]string{}
		for name, s := range surfaces {
			in := args{}
			if st.in != nil {
				in = st.in(ids[name])
			} else { // the ground step: an answer against the package of the context step
				in = args{"package": saved[name]["P"], "answer": "Deploys go out on Tuesdays after the freeze. The staging database runs MySQL 8."}
			}
			out, code := s.do(t, st.op, in)
			if code != st.code {
				t.Fatalf("step %d %s %v on %s: code %q, want %q (%v)", i, st.op, in, name, code, st.code, out)
			}
			if kept, ok := strings.CutPrefix(st.save, "package "); ok {
				if saved[name] == nil {
					saved[name] = map[string]any{}
				}
				saved[name][kept] = out
			} else if st.save != "" {
				m := out.(map[string]any)
				if id, ok := m["record_id"].(string); ok { // a promotion's record
					m["id"] = id
				}
				ids[name][st.save] = m["id"].(string)
			}
			results[name] = code // a refusal: the same code (each surface words its message)
			if code == "" {
				results[name] = normalise(t, st.op, clone(out), ids[name])
			}
		}
		if os.Getenv("PARITY_LOG") != "" {
			t.Logf("step %d %s: %.600s", i, st.op, results["cli"])
		}
		if st.in != nil && st.in(nil)["profile"] == "rrf" && st.op == "recall" && !strings.Contains(results["cli"], `"fusion":"rrf"`) {
			t.Errorf("step %d: the rrf profile was not used: %.600s", i, results["cli"])
		}
		if st.in != nil && st.in(nil)["query"] == incomingQuery && !strings.Contains(results["cli"], `"direction":"incoming"`) {
			t.Errorf("step %d: no incoming expansion: %.600s", i, results["cli"])
		}
		if results["cli"] != results["http"] || results["cli"] != results["mcp"] {
			t.Errorf("step %d %s differs:\ncli  %s\nhttp %s\nmcp  %s", i, st.op, results["cli"], results["http"], results["mcp"])
		}
	}
}

// incomingQuery finds B alone, which A links to.
const incomingQuery = "staging database postgres"

// homeWith returns a new home whose config.json is cfg.
func homeWith(t *testing.T, cfg string) string {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func fixed(a args) func(map[string]string) args { return func(map[string]string) args { return a } }

// clone deep-copies a decoded JSON value (normalise rewrites what it is
// given; a kept package must stay as the surface returned it).
func clone(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

// normalise keeps what must agree across surfaces: ids as their names,
// no server times, scores to four places.
func normalise(t *testing.T, op string, out any, ids map[string]string) string {
	names := map[string]string{}
	for name, id := range ids {
		names[id] = name
	}
	var keep func(v any) any
	keep = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			m := map[string]any{}
			for k, x := range v {
				switch k {
				case "created_at", "updated_at", "took_ms", "content_hash", "context", "used_filters", "next_cursor", "stages",
					"at", "by": // a promotion's time, and who: the local user on the CLI, the token elsewhere
					continue
				case "explain": // only how an expanded hit relates to its hit, and the fusion ranking used
					e, _ := x.(map[string]any)
					switch {
					case e["relation"] != nil:
						x = args{"relation": e["relation"], "expanded_from": e["expanded_from"], "direction": e["direction"]}
					case e["fusion"] != nil:
						x = args{"fusion": e["fusion"]}
					default:
						continue
					}
				case "links": // compared where links are the point
					if op != "link" && op != "unlink" && op != "get" {
						continue
					}
				case "id", "record_id":
					if s, _ := x.(string); names[s] != "" {
						x = names[s]
					} else {
						x = "?"
					}
				}
				m[k] = keep(x)
			}
			return m
		case []any:
			for i := range v {
				v[i] = keep(v[i])
			}
			return v
		case string:
			if names[v] != "" {
				return names[v]
			}
		case float64:
			return math.Round(v*1e4) / 1e4
		}
		return v
	}
	if fields := parityFields[op]; fields != nil {
		if m, ok := out.(map[string]any); ok {
			shared := args{}
			for _, f := range fields {
				if v := m[f]; v != nil && v != false { // omitted or false: the same
					shared[f] = v
				}
			}
			out = shared
		}
	}
	b, _ := json.Marshal(keep(out))
	return string(b)
}

// cliSurface runs the binary with --json.
type cliSurface struct{ home string }

func (c *cliSurface) do(t *testing.T, op string, in args) (any, string) {
	argv := []string{op}
	positional := []string{"query", "id"}
	if op == "link" || op == "unlink" {
		positional = []string{"from", "to"}
	}
	for _, k := range positional {
		if v, ok := in[k].(string); ok {
			argv = append(argv, v)
		}
	}
	if ids, ok := in["ids"].([]string); ok {
		argv = append(argv, ids...)
	}
	for k, v := range in {
		flag := "--" + strings.ReplaceAll(k, "_", "-")
		switch k {
		case "text", "query", "id", "ids":
		case "from", "to":
			if op != "link" && op != "unlink" {
				argv = append(argv, flag, fmt.Sprint(v))
			}
		case "package": // a file, as `mneme context --json` printed it
			b, _ := json.Marshal(v)
			path := filepath.Join(t.TempDir(), "package.json")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			argv = append(argv, flag, path)
		case "kinds":
			argv = append(argv, "--kind", strings.Join(v.([]string), ","))
		case "statuses":
			argv = append(argv, "--status", strings.Join(v.([]string), ","))
		case "meta":
			for mk, mv := range v.(args) {
				argv = append(argv, "--meta", fmt.Sprintf("%s=%v", mk, mv))
			}
		case "dry_run", "report", "explain", "require_embedding", "include_unmatched", "expired":
			if v == true {
				argv = append(argv, flag)
			}
		default:
			if list, ok := v.([]string); ok {
				v = strings.Join(list, ",")
			}
			argv = append(argv, flag, fmt.Sprint(v))
		}
	}
	argv = append(argv, "--json")
	if text, ok := in["text"].(string); ok {
		argv = append(argv, "--", text) // after --, everything is text
	}
	r := mneme(t, c.home, "", argv...)
	if r.code != 0 {
		var e struct{ Error struct{ Code string } }
		json.Unmarshal([]byte(r.stderr), &e)
		return r.stderr, e.Error.Code
	}
	var out any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("mneme %v: %v: %s", argv, err, r.stdout)
	}
	return out, ""
}

// httpSurface calls `mneme serve`.
type httpSurface struct{ s *served }

func (h *httpSurface) do(t *testing.T, op string, in args) (any, string) {
	body, _ := json.Marshal(in)
	method, path := "POST", "/v1/"+op
	switch op {
	case "remember":
		path = "/v1/memories"
	case "get":
		method, path, body = "GET", "/v1/memories/"+url.PathEscape(in["id"].(string)), nil
	case "list":
		q := url.Values{"project": {in["project"].(string)}}
		if meta, ok := in["meta"].(args); ok {
			for k, v := range meta {
				q.Add("meta", fmt.Sprintf("%s=%v", k, v))
			}
		}
		method, path, body = "GET", "/v1/memories?"+q.Encode(), nil
	case "stats":
		method, body = "GET", nil
	case "link":
		path = "/v1/memories/" + url.PathEscape(in["from"].(string)) + "/links"
		body, _ = json.Marshal(args{"to": in["to"], "rel": in["rel"]})
	case "unlink":
		method, path, body = "DELETE", "/v1/memories/"+url.PathEscape(in["from"].(string))+"/links/"+url.PathEscape(in["to"].(string)), nil
		if rel, ok := in["rel"].(string); ok {
			path += "?rel=" + url.QueryEscape(rel)
		}
	case "forget":
		req := args{}
		filter := args{}
		for k, v := range in {
			switch k {
			case "ids", "dry_run":
				req[k] = v
			default:
				filter[k] = v
			}
		}
		if len(filter) > 0 {
			req["filter"] = filter
		}
		body, _ = json.Marshal(req)
	}
	var out any
	status := httpJSON(t, method, h.s.url+path, string(body), &out)
	if status >= 300 {
		code, _ := out.(map[string]any)["error"].(map[string]any)["code"].(string)
		return out, code
	}
	return out, ""
}

// mcpSurface calls `mneme mcp` through the Go SDK's client.
type mcpSurface struct{ session *mcp.ClientSession }

// newMCPSurface serves every tool, not only the default ones.
func newMCPSurface(t *testing.T) *mcpSurface {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"mcp":{"tools":"all"}}`), 0o600)
	return mcpSurfaceAt(t, home)
}

func mcpSurfaceAt(t *testing.T, home string) *mcpSurface {
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "parity", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return &mcpSurface{session}
}

func (m *mcpSurface) do(t *testing.T, op string, in args) (any, string) {
	ctx := context.Background()
	if op == "stats" { // a resource over MCP: the projects and their counts
		res, err := m.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "mneme://projects"})
		if err != nil {
			t.Fatal(err)
		}
		var projects struct{ Projects []any }
		json.Unmarshal([]byte(res.Contents[0].Text), &projects)
		return statsOf(projects.Projects), ""
	}
	if op == "unlink" { // an action of the link tool
		op, in = "link", clone(in).(map[string]any)
		in["unlink"] = true
	}
	res, err := m.session.CallTool(ctx, &mcp.CallToolParams{Name: op, Arguments: in})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		code, _ := res.Meta["code"].(string)
		return res.Content, code
	}
	var out any
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if op == "recall" { // the shared fields of a recall
		o := out.(map[string]any)
		shared := args{"hits": o["hits"], "mode": o["mode"], "degraded": o["degraded"], "held_back": o["held_back"], "vector_query": o["vector_query"]}
		if o["report"] != nil {
			shared["report"], shared["took_ms"] = o["report"], o["took_ms"]
		}
		return shared, ""
	}
	return out, ""
}

// statsOf rebuilds the Stats JSON from the projects resource.
func statsOf(projects []any) args {
	total := 0.0
	for _, p := range projects {
		total += p.(map[string]any)["total"].(float64)
	}
	return args{"total": total, "projects": projects}
}

// parityFields are the fields of a stats or recall answer the surfaces
// share; the CLI and HTTP carry more (store-wide counters, explanations).
var parityFields = map[string][]string{"stats": {"total", "projects"}, "recall": {"hits", "mode", "degraded", "held_back", "vector_query"}}
