package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hiddenSecret is a secret record the security table's attacks try to
// reach, seeded by the owner before them.
type hiddenSecret struct {
	id, text, key string
	derivedID     string // a summary derived from an internal source the table makes secret
	sourceID      string
}

func seedHidden(t *testing.T, home string) hiddenSecret {
	t.Helper()
	h := hiddenSecret{text: "The vault PIN is 4417", key: "topsecret"}
	h.id = decode[struct{ ID string }](t, ok(t, home, "remember", h.text, "--sensitivity", "secret", "--key", h.key, "--json")).ID
	h.sourceID = decode[struct{ ID string }](t, ok(t, home, "remember", "hid-source the deploy key rotates on Fridays", "--type", "episodic", "--json")).ID
	line := fmt.Sprintf(`{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d50","text":"hid-summary: the deploy key rotates on Fridays","kind":"summary","links":[{"type":"derived_from","target":%q}]}`, h.sourceID)
	p := filepath.Join(t.TempDir(), "derived.jsonl")
	os.WriteFile(p, []byte(line+"\n"), 0o600)
	ok(t, home, "import", p)
	h.derivedID = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d50"
	return h
}

// hiddenAttacks are the security table's rows on records a caller may not
// read (issue 22, 1.1-1.6).
func (h hiddenSecret) attacks() []attack {
	noTokens := map[string]string{"cli": "the CLI acts as the owner of the data directory, who may read and change every record"}
	noImport := map[string]string{"cli": noTokens["cli"], "mcp": "MCP has no import tool"}
	overwrite := fmt.Sprintf(`{"id":%q,"text":"atk-overwrite the PIN is public now","sensitivity":"internal"}`, h.id)
	return []attack{
		{
			name:     "import over a secret record's id, without clearance",
			http:     &httpProbe{method: "POST", path: "/v1/import", body: `{"text":"atk-import-first a valid line"}` + "\n" + overwrite, token: secWriter},
			wantHTTP: "403 EFORBIDDEN", na: noImport, marker: "atk-import-first",
		},
		{
			name:     "import over a secret record's id, with a project-scoped token",
			http:     &httpProbe{method: "POST", path: "/v1/import", body: strings.Replace(overwrite, `"text"`, `"project":"alpha","text"`, 1), token: secAlpha},
			wantHTTP: "403 EFORBIDDEN", na: noImport, marker: "atk-overwrite",
		},
		{
			// A new record: the same answer as for a wrong guess.
			name:     "re-remember a secret record's exact text, as internal",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"The vault PIN is 4417","sensitivity":"internal"}`, token: secWriter},
			mcp:      &mcpProbe{tool: "remember", args: `{"text":"The vault PIN is 4417","sensitivity":"internal"}`},
			wantHTTP: "201", wantMCP: "ok", na: noTokens,
		},
		{
			name:    "re-remember a secret record's exact text, over MCP with a token",
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"The vault PIN is 4417","sensitivity":"internal"}`, token: secWriter},
			wantMCP: "ok",
			na:      map[string]string{"cli": noTokens["cli"], "http": "the row above"},
		},
		{
			name:     "supersede a secret record through its key",
			http:     &httpProbe{method: "POST", path: "/v1/memories", body: `{"text":"hid-key a new value","key":"topsecret"}`, token: secWriter},
			mcp:      &mcpProbe{tool: "remember", args: `{"text":"hid-key another value","key":"topsecret"}`},
			wantHTTP: "201", wantMCP: "ok", na: noTokens,
		},
		{
			name: "forged promotion history through import",
			http: &httpProbe{method: "POST", path: "/v1/import", token: secWriter,
				body: `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d51","text":"hid-forged a fact everyone trusts","status":"published","provenance":"verified","promotions":[{"at":"2026-01-01T00:00:00Z","by":"admin","to_type":"semantic","to_status":"published","from":[{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","type":"episodic","status":"active"}]}]}`},
			wantHTTP: "200", na: noImport,
		},
		{
			name:     "update a secret record by id, without clearance",
			http:     &httpProbe{method: "PATCH", path: "/v1/memories/" + h.id, body: `{"sensitivity":"internal"}`, token: secWriter},
			mcp:      &mcpProbe{tool: "update", args: fmt.Sprintf(`{"id":%q,"sensitivity":"internal"}`, h.id)},
			wantHTTP: "404 ENOTFOUND", wantMCP: "tool error ENOTFOUND", na: noTokens,
		},
		{
			name:    "update a secret record by id, over MCP with a token",
			mcp:     &mcpProbe{tool: "update", args: fmt.Sprintf(`{"id":%q,"sensitivity":"internal"}`, h.id), token: secWriter},
			wantMCP: "tool error ENOTFOUND",
			na:      map[string]string{"cli": noTokens["cli"], "http": "the row above"},
		},
		{
			name:    "supersede a secret record through its key, over MCP with a token",
			mcp:     &mcpProbe{tool: "remember", args: `{"text":"hid-key a third value","key":"topsecret"}`, token: secWriter},
			wantMCP: "ok",
			na:      map[string]string{"cli": noTokens["cli"], "http": "the row above"},
		},
		{
			name:     "link to a secret record, without clearance",
			http:     &httpProbe{method: "POST", path: "/v1/memories/" + h.sourceID + "/links", body: fmt.Sprintf(`{"to":%q,"rel":"relates_to"}`, h.id), token: secWriter},
			mcp:      &mcpProbe{tool: "link", args: fmt.Sprintf(`{"from":%q,"to":%q,"rel":"relates_to"}`, h.sourceID, h.id)},
			wantHTTP: "400 EINVALID", wantMCP: "tool error EINVALID", na: noTokens,
		},
		{
			name:     "the source of a summary made secret",
			http:     &httpProbe{method: "PATCH", path: "/v1/memories/" + h.sourceID, body: `{"sensitivity":"secret"}`, token: secWriter},
			wantHTTP: "200", na: map[string]string{"cli": "the rule is the Engine's; one surface sets it off", "mcp": "the same"},
		},
	}
}

// checkHidden checks, after the table, what the hidden-record attacks must
// have left: the secret unchanged and secret, the summary of a now secret
// source secret too, forged promotions marked, and a secret id answering
// exactly as a missing one on every route that takes an id.
func (h hiddenSecret) check(t *testing.T, rig *securityRig) {
	t.Helper()
	got := decode[struct {
		Text, Sensitivity, Status string
	}](t, ok(t, rig.home, "get", h.id, "--clearance", "secret", "--json"))
	if got.Text != h.text || got.Sensitivity != "secret" || got.Status != "active" {
		t.Errorf("the secret record after the attacks: %+v", got)
	}
	if d := decode[struct{ Sensitivity string }](t, ok(t, rig.home, "get", h.derivedID, "--clearance", "secret", "--json")); d.Sensitivity != "secret" {
		t.Errorf("the summary of a source made secret is %s", d.Sensitivity)
	}
	status, body := rig.send(&httpProbe{method: "GET", path: "/v1/memories/" + h.derivedID, token: secReader})
	if status != 404 || strings.Contains(body, "deploy key") {
		t.Errorf("a reader gets the summary of a secret source: %d %s", status, body)
	}
	forged := ok(t, rig.home, "get", "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d51", "--json")
	if !strings.Contains(forged, `"imported_by": "writer"`) && !strings.Contains(forged, `"imported_by":"writer"`) {
		t.Errorf("a promotion imported by a token is not marked as imported by it: %s", forged)
	}
	const missing = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5f"
	same := func(surface string, answer func(id string) string) {
		s, m := answer(h.id), answer(missing)
		if strings.ReplaceAll(s, h.id, "ID") != strings.ReplaceAll(m, missing, "ID") {
			t.Errorf("%s: a secret id answers %q, a missing one %q", surface, s, m)
		}
	}
	for _, p := range []struct{ method, path, body string }{
		{"GET", "/v1/memories/%s", ""}, {"PATCH", "/v1/memories/%s", `{"tags":["x"]}`},
		{"DELETE", "/v1/memories/%s", ""}, {"POST", "/v1/promote", `{"ids":[%q],"to":"procedural"}`},
		{"POST", "/v1/forget", `{"ids":[%q]}`},
		{"POST", "/v1/memories/0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d51/links", `{"to":%q,"rel":"relates_to"}`},
	} {
		same("HTTP "+p.method+" "+p.path, func(id string) string {
			path, body := p.path, p.body
			if strings.Contains(path, "%s") {
				path = fmt.Sprintf(path, id)
			} else {
				body = fmt.Sprintf(body, id)
			}
			status, out := rig.send(&httpProbe{method: p.method, path: path, body: body, token: secWriter})
			return fmt.Sprint(status, " ", out)
		})
	}
	for _, tool := range []string{`get {"id":%q}`, `update {"id":%q,"tags":["x"]}`, `forget {"ids":[%q]}`, `promote {"ids":[%q],"to":"procedural"}`} {
		name, args, _ := strings.Cut(tool, " ")
		same("MCP "+name, func(id string) string { return rig.stdio.text(t, name, fmt.Sprintf(args, id)) })
	}
	// The CLI acts as the owner, who may forget any record by id; the
	// commands that take a clearance answer alike below it.
	for _, args := range [][]string{{"get", "%s"}, {"update", "%s", "--tags", "x"}, {"promote", "%s", "--to", "procedural"}} {
		same("CLI "+args[0], func(id string) string {
			a := append([]string{}, args...)
			a[1] = id
			res := mneme(t, rig.home, "", append(a, "--json")...)
			var e struct{ Error json.RawMessage }
			json.Unmarshal([]byte(res.stderr), &e)
			return fmt.Sprint(res.code, " ", string(e.Error))
		})
	}
}
