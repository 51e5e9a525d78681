package httpapi_test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/webui"
)

var secretReader = access.Token{Name: "vault", Token: "vault-secret-0123456789", Access: "read", Clearance: mneme.Secret}

// TestRelated: a record's neighbours in its session and its key's history,
// only those the caller may read (a secret turn is there for a token with
// clearance secret only), and nothing for a record it may not read.
func TestRelated(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha, secretReader}})
	turn := func(text, at string, sens mneme.Sensitivity) string {
		return e.remember(&writer, mneme.RememberRequest{Text: text, Project: "alpha", SessionID: "s1", OccurredAt: at, Sensitivity: sens, Kind: "turn", Type: mneme.Episodic})
	}
	first := turn("we start the release", "2026-01-02T10:00:00Z", "")
	mid := turn("the password is in the vault", "2026-01-02T10:01:00Z", mneme.Secret)
	last := turn("the release is done", "2026-01-02T10:02:00Z", "")
	var rel mneme.Related
	e.want(e.do("GET", "/v1/memories/"+first+"/related", &reader, nil), http.StatusOK, &rel)
	if len(rel.Before) != 0 || len(rel.After) != 1 || rel.After[0].ID != last || len(rel.History) != 0 {
		t.Fatalf("reader sees %+v: want only %s after", rel, last)
	}
	e.want(e.do("GET", "/v1/memories/"+first+"/related?neighbours=1", &secretReader, nil), http.StatusOK, &rel)
	if len(rel.After) != 1 || rel.After[0].ID != mid {
		t.Fatalf("a token with clearance secret sees %+v: want %s after", rel.After, mid)
	}
	e.wantError(e.do("GET", "/v1/memories/"+mid+"/related", &reader, nil), http.StatusNotFound, mneme.ENOTFOUND)

	v1 := e.remember(&writer, mneme.RememberRequest{Text: "release on Mondays", Project: "alpha", Key: "release-day"})
	v2 := e.remember(&writer, mneme.RememberRequest{Text: "release on Fridays", Project: "alpha", Key: "release-day"})
	e.want(e.do("GET", "/v1/memories/"+v2+"/related", &alpha, nil), http.StatusOK, &rel)
	if len(rel.History) != 2 || rel.History[0].ID != v1 || rel.History[1].ID != v2 {
		t.Fatalf("history %+v: want %s then %s", rel.History, v1, v2)
	}
	for _, q := range []string{"neighbours=0", "neighbours=201", "neighbours=x", "n=3"} {
		e.wantError(e.do("GET", "/v1/memories/"+v2+"/related?"+q, &reader, nil), http.StatusBadRequest, mneme.EINVALID)
	}
}

// TestScopeTagsDoctor: GET /v1/scope says what the token allows; tags are
// counted under the token's scope; the doctor's recent errors are for
// tokens that cover every project.
func TestScopeTagsDoctor(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha}})
	var sc struct {
		Name      string   `json:"name"`
		Projects  []string `json:"projects"`
		Write     bool     `json:"write"`
		Clearance string   `json:"clearance"`
	}
	e.want(e.do("GET", "/v1/scope", &reader, nil), http.StatusOK, &sc)
	if sc.Name != "reader" || sc.Write || len(sc.Projects) != 0 {
		t.Fatalf("reader's scope %+v", sc)
	}
	e.want(e.do("GET", "/v1/scope", &alpha, nil), http.StatusOK, &sc)
	if !sc.Write || len(sc.Projects) != 1 {
		t.Fatalf("alpha's scope %+v", sc)
	}
	e.remember(&writer, mneme.RememberRequest{Text: "alpha note", Project: "alpha", Tags: []string{"a", "both"}})
	e.remember(&writer, mneme.RememberRequest{Text: "beta note", Project: "beta", Tags: []string{"b", "both"}})
	e.remember(&writer, mneme.RememberRequest{Text: "hidden note", Project: "alpha", Tags: []string{"hidden"}, Sensitivity: mneme.Secret})
	for tok, want := range map[*access.Token]string{&reader: `"both","count":2`, &alpha: `"both","count":1`} {
		res := e.do("GET", "/v1/tags", tok, nil)
		if res.status != 200 || !strings.Contains(string(res.body), want) || strings.Contains(string(res.body), "hidden") {
			t.Errorf("%s: tags %d %s, want %s and no secret tag", tok.Name, res.status, res.body, want)
		}
	}
	e.wantError(e.do("GET", "/v1/tags?project=beta", &alpha, nil), http.StatusForbidden, httpapi.EFORBIDDEN)
	var doc struct {
		OK     bool                `json:"ok"`
		Checks []mneme.HealthCheck `json:"checks"`
		Errors []map[string]any    `json:"errors"`
	}
	res := e.do("GET", "/v1/doctor", &alpha, nil)
	e.want(res, http.StatusOK, &doc)
	if !doc.OK || len(doc.Checks) < 3 || doc.Errors == nil {
		t.Fatalf("doctor %+v", doc)
	}
	if strings.Contains(string(res.body), os.TempDir()) { // the home is a temporary directory
		t.Errorf("doctor names the server's files by absolute path: %s", res.body)
	}
}

// TestUIMounted: with Config.UI the page is at / and its files under /ui/,
// with the UI's security headers, behind the same Host gate; other paths
// keep the API's JSON answers.
func TestUIMounted(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer}, UI: webui.Handler()})
	for _, path := range []string{"/", webui.AssetPrefix() + "app.js", webui.AssetPrefix() + "style.css"} {
		res := e.do("GET", path, nil, nil)
		if res.status != 200 || res.header.Get("Content-Security-Policy") != webui.Policy || res.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: %d %v", path, res.status, res.header)
		}
	}
	if res := e.do("GET", "/v1/nothing", nil, nil); res.status != 404 || !strings.Contains(string(res.body), `"ENOTFOUND"`) {
		t.Errorf("GET /v1/nothing: %d %s", res.status, res.body)
	}
	if res := e.do("POST", "/", nil, map[string]any{}); res.status != 405 {
		t.Errorf("POST /: %d %s", res.status, res.body)
	}
	res := e.send("GET", "/", nil, nil, map[string]string{"Host": "evil.example"})
	if res.status != 403 {
		t.Errorf("GET / with a foreign Host: %d", res.status)
	}
	e2 := newEnv(t, httpapi.Config{})
	if res := e2.do("GET", "/", nil, nil); res.status != 404 {
		t.Errorf("GET / without a UI: %d", res.status)
	}
}

// TestDoctorErrors: a failed request (the store closed under the server)
// shows in the doctor's recent errors for a token that covers every
// project, not for one limited to projects; the checks say the store fails.
func TestDoctorErrors(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, alpha}})
	e.eng.Close()
	if res := e.do("GET", "/v1/stats", &writer, nil); res.status != http.StatusInternalServerError {
		t.Fatalf("stats on a closed store: %d %s", res.status, res.body)
	}
	type recent struct {
		At      string `json:"at"`
		Route   string `json:"route"`
		Status  int    `json:"status"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	type doctor struct {
		OK     bool                `json:"ok"`
		Checks []mneme.HealthCheck `json:"checks"`
		Errors []recent            `json:"errors"`
	}
	var all, scoped doctor
	e.want(e.do("GET", "/v1/doctor", &writer, nil), http.StatusOK, &all)
	e.want(e.do("GET", "/v1/doctor", &alpha, nil), http.StatusOK, &scoped)
	if all.OK || len(all.Errors) == 0 || all.Errors[0].Route != "GET /v1/stats" {
		t.Errorf("writer's doctor: %+v", all)
	}
	if scoped.OK || len(scoped.Errors) != 0 {
		t.Errorf("alpha's doctor shows errors: %+v", scoped)
	}
}
