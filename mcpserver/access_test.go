package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/access"
)

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestAccessScopes serves MCP over streamable HTTP behind the bearer
// middleware with access.Verifier, as `mneme serve` does, so each call
// carries its token's scope in Extra.TokenInfo.
func TestAccessScopes(t *testing.T) {
	eng, _ := newEngine(t, true)
	ctx := context.Background()
	var shopID, blogID string
	for _, r := range []struct {
		project string
		id      *string
	}{{"shop", &shopID}, {"blog", &blogID}} {
		res, err := eng.Remember(ctx, []*mneme.Record{{Text: "notes about the " + r.project + " release", Project: r.project, Tags: []string{"x"}}}, mneme.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		*r.id = res.ID
	}
	tokens := []access.Token{
		{Name: "reader", Token: "reader-0123456789abcdef", Projects: []string{"shop"}, Access: "read"},
		{Name: "writer", Token: "writer-0123456789abcdef", Projects: []string{"shop"}, Access: "write"},
		{Name: "multi", Token: "multi-0123456789abcdef", Projects: []string{"shop", "blog"}, Access: "write"},
		{Name: "admin", Token: "admin-0123456789abcdef", Access: "write"},
	}
	srv := New(eng, testInfo)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(auth.RequireBearerToken(access.Verifier(tokens), &auth.RequireBearerTokenOptions{})(h))
	defer ts.Close()
	sessions := map[string]*mcp.ClientSession{}
	for _, tok := range tokens {
		tr := &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer(tok.Token)}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: tok.Name, Version: "1"}, nil).Connect(ctx, tr, nil)
		if err != nil {
			t.Fatalf("%s: %v", tok.Name, err)
		}
		defer cs.Close()
		sessions[tok.Name] = cs
	}

	for _, c := range []struct {
		token, tool string
		args        args
		want        string // a substring of the result's text
	}{
		{"reader", "remember", args{"text": "x"}, `EFORBIDDEN: token "reader" is read-only and remember writes`},
		{"reader", "forget", args{"ids": shopID}, `EFORBIDDEN: token "reader" is read-only`},
		{"reader", "recall", args{"query": "release"}, `"project":"shop"`},
		{"reader", "recall", args{"query": "release", "project": "blog"}, `EFORBIDDEN: token "reader" does not cover project "blog": it covers shop`},
		{"reader", "get", args{"id": shopID}, `"project":"shop"`},
		{"reader", "get", args{"id": blogID}, "ENOTFOUND: no record with id " + blogID},
		{"reader", "list", args{}, shopID},
		{"multi", "recall", args{"query": "release"}, `EINVALID: token "multi" covers several projects (shop, blog): name one with project`},
		{"multi", "recall", args{"query": "release", "project": "blog"}, blogID},
		{"writer", "remember", args{"text": "scoped", "project": "blog"}, `EFORBIDDEN: token "writer" does not cover project "blog"`},
		{"writer", "remember", args{"text": "written under the writer token"}, `"inserted":1`},
		{"writer", "forget", args{"ids": blogID, "dry_run": true}, "ENOTFOUND: no record with id " + blogID},
		{"writer", "forget", args{"tags": "x", "dry_run": true}, `"ids":["` + shopID + `"]`},
		{"admin", "forget", args{"tags": "x", "dry_run": true}, blogID},
		{"admin", "recall", args{"query": "release"}, blogID},
		{"writer", "sync", args{}, `EFORBIDDEN: token "writer" covers only some projects and sync touches all of them`},
		{"admin", "sync", args{}, `"embedded":0`},
	} {
		res := call(t, sessions[c.token], c.tool, c.args)
		if got := text(res); !strings.Contains(got, c.want) {
			t.Errorf("%s %s %v: %s\nwant it to contain %s", c.token, c.tool, c.args, got, c.want)
		}
	}
	var written struct {
		Records []struct{ Project, Text string }
	}
	structured(t, call(t, sessions["admin"], "list", args{"project": "shop"}), &written)
	if len(written.Records) != 2 || written.Records[0].Text != "written under the writer token" {
		t.Errorf("the writer's memory is not the newest in shop: %+v", written.Records)
	}
	if res := call(t, sessions["reader"], "list", args{}); strings.Contains(text(res), blogID) {
		t.Errorf("reader lists blog: %s", text(res))
	}

	read := func(token, uri string) (string, error) {
		res, err := sessions[token].ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}
	for _, c := range []struct{ token, uri, want, wantErr string }{
		{"reader", "mneme://projects", `"shop"`, ""},
		{"admin", "mneme://projects", `"blog"`, ""},
		{"reader", "mneme://projects/shop/tags", `"x"`, ""},
		{"reader", "mneme://projects/blog/tags", "", `EFORBIDDEN: token "reader" does not cover project "blog"`},
		{"reader", "mneme://settings", "", "EFORBIDDEN"},
		{"admin", "mneme://settings", "embedder", ""},
		{"reader", "mneme://health", `"total": 2`, ""},
		{"admin", "mneme://health", `"superseded"`, ""},
		{"admin", "mneme://jobs", `"caller": "admin"`, ""},
		{"admin", "mneme://health", `"kind": "sync"`, ""},
		{"reader", "mneme://jobs", `"jobs": []`, ""}, // the store-wide sync is not shop's
		{"reader", "mneme://health", `"last_jobs": []`, ""},
	} {
		got, err := read(c.token, c.uri)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s %s: err %v, want %s", c.token, c.uri, err, c.wantErr)
		case c.wantErr == "" && (err != nil || !strings.Contains(got, c.want)):
			t.Errorf("%s %s: %s (err %v), want it to contain %s", c.token, c.uri, got, err, c.want)
		}
		if c.token == "reader" && strings.Contains(got, "blog") {
			t.Errorf("reader sees blog in %s: %s", c.uri, got)
		}
	}
	var ps struct{ Projects []json.RawMessage }
	got, _ := read("reader", "mneme://projects")
	if json.Unmarshal([]byte(got), &ps); len(ps.Projects) != 1 {
		t.Errorf("reader's projects: %s", got)
	}
}

// TestSecretCounts: the projects and health resources count secret records
// only for a token with clearance secret.
func TestSecretCounts(t *testing.T) {
	eng, _ := newEngine(t, true)
	ctx := context.Background()
	for _, r := range []mneme.Record{
		{Text: "the shop deploys on fridays", Project: "shop"},
		{Text: "the shop vault code is 0000", Project: "shop", Sensitivity: mneme.Secret, Type: mneme.Procedural},
		{Text: "the vault opens at nine", Project: "vault", Sensitivity: mneme.Secret},
	} {
		if _, err := eng.Remember(ctx, []*mneme.Record{&r}, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	tokens := []access.Token{
		{Name: "plain", Token: "plain-0123456789abcdef", Access: "read"},
		{Name: "cleared", Token: "cleared-0123456789abcdef", Access: "read", Clearance: mneme.Secret},
	}
	srv := New(eng, testInfo)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(auth.RequireBearerToken(access.Verifier(tokens), &auth.RequireBearerTokenOptions{})(h))
	defer ts.Close()
	type counts struct {
		Projects []mneme.ProjectStats `json:"projects"`
		Records  map[string]int       `json:"records"`
	}
	read := func(token, uri string) counts {
		t.Helper()
		tr := &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer(token)}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		var c counts
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain := read(tokens[0].Token, "mneme://projects")
	if want := []mneme.ProjectStats{{Project: "shop", Total: 1, Types: map[string]int{"semantic": 1}}}; !reflect.DeepEqual(plain.Projects, want) {
		t.Errorf("projects without clearance: %+v, want %+v", plain.Projects, want)
	}
	cleared := read(tokens[1].Token, "mneme://projects")
	if len(cleared.Projects) != 2 || cleared.Projects[0].Total != 2 || cleared.Projects[0].Types["procedural"] != 1 {
		t.Errorf("projects with clearance secret: %+v", cleared.Projects)
	}
	if r := read(tokens[0].Token, "mneme://health").Records; r["total"] != 1 || r["secret"] != 0 {
		t.Errorf("health without clearance: %v", r)
	}
	if r := read(tokens[1].Token, "mneme://health").Records; r["total"] != 3 || r["secret"] != 2 {
		t.Errorf("health with clearance secret: %v", r)
	}
}
