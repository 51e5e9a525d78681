package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

type object = map[string]any

// openAPI fetches the served document.
func openAPI(t *testing.T, e *env) object {
	t.Helper()
	res := e.do("GET", "/v1/openapi.json", nil, nil)
	var doc object
	if res.status != 200 || json.Unmarshal(res.body, &doc) != nil || doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi.json: %d %.200s", res.status, res.body)
	}
	return doc
}

var methods = []string{"get", "post", "put", "patch", "delete"}

// operations lists the document's operations as "METHOD /path".
func operations(doc object) []string {
	var ops []string
	for path, item := range doc["paths"].(object) {
		for _, m := range methods {
			if item.(object)[m] != nil {
				ops = append(ops, strings.ToUpper(m)+" "+path)
			}
		}
	}
	sort.Strings(ops)
	return ops
}

// TestOpenAPIRoutes: the document describes exactly the routes the mux
// serves.
func TestOpenAPIRoutes(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	doc := openAPI(t, e)
	documented := operations(doc)
	served := append(httpapi.Patterns(), httpapi.MCPPatterns...)
	sort.Strings(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("documented operations differ from the routes:\ndocumented %q\nserved     %q", documented, served)
	}
	params := func(op string) (names []string) {
		method, path, _ := strings.Cut(op, " ")
		for _, p := range doc["paths"].(object)[path].(object)[strings.ToLower(method)].(object)["parameters"].([]any) {
			names = append(names, p.(object)["name"].(string))
		}
		return names
	}
	if got := params("GET /v1/memories"); !slices.Equal(got, httpapi.ListParams) {
		t.Errorf("GET /v1/memories parameters %q, the handler reads %q", got, httpapi.ListParams)
	}
}

// TestOpenAPIOperations sends each operation's documented example (or no
// body) to a real server with a write token: every one is served (not the
// mux's 404 or 405) with a documented 2xx status, the documented content
// type and a body that fits the documented schema. Methods a path does not
// document are refused with 405.
func TestOpenAPIOperations(t *testing.T) {
	codeRoot, code := codeRepo(t)
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer}, MCP: mcpStub, Code: code})
	e.remember(&writer, mneme.RememberRequest{Text: "Old tickets are obsolete.", Project: "demo", Tags: []string{"obsolete"}})
	e.remember(&writer, mneme.RememberRequest{Text: "We closed the old tickets today.", Project: "demo", Type: mneme.Episodic}) // for summarize
	doc := openAPI(t, e)
	for _, op := range operations(doc) {
		t.Run(op, func(t *testing.T) {
			e.t = t
			method, path, _ := strings.Cut(op, " ")
			spec := doc["paths"].(object)[path].(object)[strings.ToLower(method)].(object)
			if strings.Contains(path, "{id}") { // a fresh record for each, as DELETE forgets it
				path = strings.Replace(path, "{id}", e.remember(&writer, mneme.RememberRequest{Text: "Target of " + op, Project: "demo"}), 1)
			}
			to := e.remember(&writer, mneme.RememberRequest{Text: "Link target of " + op, Project: "demo"}) // a link's other end
			path = strings.Replace(path, "{to}", to, 1)
			var body any
			var header map[string]string
			if rb, ok := spec["requestBody"].(object); ok {
				for ct, media := range rb["content"].(object) {
					header = map[string]string{"Content-Type": ct}
					body = media.(object)["example"]
					if s, ok := body.(string); ok {
						body = s // JSON Lines, sent as written
					}
				}
				if body == nil {
					t.Fatal("request body without an example")
				}
			}
			if b, ok := body.(object); ok && b["to"] != nil && strings.HasSuffix(path, "/links") {
				b["to"] = to
			}
			if strings.HasPrefix(path, "/v1/code/") { // a repository that exists, under code.roots
				body.(object)["project_root"] = codeRoot
			}
			res := e.send(method, path, &writer, body, header)
			documented, ok := spec["responses"].(object)[fmt.Sprint(res.status)].(object)
			if !ok || res.status/100 != 2 {
				t.Fatalf("status %d is not a documented success: %s", res.status, res.body)
			}
			media, ok := documented["content"].(object)
			if !ok {
				return
			}
			ct, _, _ := strings.Cut(res.header.Get("Content-Type"), ";")
			m, ok := media[ct].(object)
			if !ok {
				t.Fatalf("Content-Type %q is not documented (%v)", ct, media)
			}
			if ct == "application/json" && path != "/v1/openapi.json" {
				var v any
				if err := json.Unmarshal(res.body, &v); err != nil {
					t.Fatal(err)
				}
				if errs := conform(doc, m["schema"].(object), v, "body"); len(errs) > 0 {
					t.Fatalf("the body does not fit the schema:\n%s\n%s", strings.Join(errs, "\n"), res.body)
				}
			}
		})
	}
	e.t = t
	templates := map[string]*regexp.Regexp{}
	for path := range doc["paths"].(object) {
		templates[path] = regexp.MustCompile("^" + regexp.MustCompile(`\\\{[a-z]+\\\}`).ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$")
	}
	for path, item := range doc["paths"].(object) {
		for _, m := range methods {
			if item.(object)[m] != nil || servedElsewhere(doc, templates, path, m) {
				continue
			}
			if res := e.do(strings.ToUpper(m), path, &writer, nil); res.status != http.StatusMethodNotAllowed {
				t.Errorf("%s %s is not documented but answers %d", strings.ToUpper(m), path, res.status)
			}
		}
	}
}

// servedElsewhere reports whether another documented path template
// matches path for method (GET /v1/memories/batch is GET /v1/memories/{id}).
func servedElsewhere(doc object, templates map[string]*regexp.Regexp, path, method string) bool {
	for other, re := range templates {
		if other != path && re.MatchString(path) && doc["paths"].(object)[other].(object)[method] != nil {
			return true
		}
	}
	return false
}
