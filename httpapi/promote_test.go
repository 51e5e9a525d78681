package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

func TestPromote(t *testing.T) {
	cleared := access.Token{Name: "cleared", Token: "cleared-secret-0123456789", Access: "write", Clearance: mneme.Secret}
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha, cleared}})
	ev := e.remember(&writer, mneme.RememberRequest{Text: "The nightly build failed: the cache volume was full.", Project: "demo", Type: mneme.Episodic})
	secret := e.remember(&cleared, mneme.RememberRequest{Text: "The vault token rotates monthly.", Project: "demo", Type: mneme.Episodic, Sensitivity: mneme.Secret})
	req := map[string]any{"ids": []string{ev}, "to": "procedural", "title": "Full build cache"}
	var made, again, pub mneme.PromoteResult
	e.want(e.do("POST", "/v1/promote", &writer, req), http.StatusCreated, &made)
	if made.Outcome != mneme.Created || made.Record.Type != mneme.Procedural || made.Record.Status != mneme.Validated ||
		len(made.Record.Promotions) != 1 || made.Record.Promotions[0].By != "writer" {
		t.Fatalf("created: %+v", made.Record)
	}
	e.want(e.do("POST", "/v1/promote", &writer, req), http.StatusOK, &again)
	e.want(e.do("POST", "/v1/promote", &writer, map[string]any{"ids": []string{made.RecordID}, "to": "procedural", "status": "published"}), http.StatusOK, &pub)
	if again.Outcome != mneme.Unchanged || pub.Outcome != mneme.Upgraded || pub.RecordID != made.RecordID || len(pub.Record.Promotions) != 2 {
		t.Fatalf("again: %+v; published: %+v", again, pub)
	}
	before := e.stats()
	for _, c := range []struct {
		name   string
		tok    *access.Token
		body   any
		status int
		code   string
		part   string
	}{
		{"no to", &writer, map[string]any{"ids": []string{ev}}, 400, mneme.EINVALID, `to "semantic"`},
		{"bad to", &writer, map[string]any{"ids": []string{ev}, "to": "episodic"}, 400, mneme.EINVALID, "not a reusable type"},
		{"bad status", &writer, map[string]any{"ids": []string{ev}, "to": "semantic", "status": "active"}, 400, mneme.EINVALID, "not a reusable status"},
		{"lower status", &writer, map[string]any{"ids": []string{made.RecordID}, "to": "procedural"}, 400, mneme.EINVALID, "never lowers"},
		{"unknown field", &writer, map[string]any{"ids": []string{ev}, "to": "semantic", "by": "me"}, 400, mneme.EINVALID, "unknown field"},
		{"unknown id", &writer, map[string]any{"ids": []string{"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}, "to": "semantic"}, 404, mneme.ENOTFOUND, "nothing was promoted"},
		{"secret without clearance", &writer, map[string]any{"ids": []string{secret}, "to": "semantic"}, 404, mneme.ENOTFOUND, "no record with id"},
		{"read-only", &reader, req, 403, mneme.EFORBIDDEN, "read-only"},
		{"other project", &alpha, req, 404, mneme.ENOTFOUND, "no record with id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.wantError(e.do("POST", "/v1/promote", c.tok, c.body), c.status, c.code, c.part)
		})
	}
	e.t = t
	if after := e.stats(); after != before {
		t.Errorf("a refused promote wrote something:\n%s\n%s", before, after)
	}
	var sec mneme.PromoteResult
	e.want(e.do("POST", "/v1/promote", &cleared, map[string]any{"ids": []string{secret}, "to": "semantic"}), http.StatusCreated, &sec)
	if sec.Record.Sensitivity != mneme.Secret || sec.Record.Promotions[0].By != "cleared" {
		t.Fatalf("secret promotion: %+v", sec.Record)
	}

	// Recall and list limited to reusable records.
	var rec mneme.Result
	e.want(e.do("POST", "/v1/recall", &writer, map[string]any{"query": "build cache volume", "statuses": []string{"validated", "published"}}), http.StatusOK, &rec)
	if len(rec.Hits) != 1 || rec.Hits[0].ID != made.RecordID {
		t.Fatalf("reusable recall: %+v", rec.Hits)
	}
	var page mneme.ListPage
	e.want(e.do("GET", "/v1/memories?status="+url.QueryEscape("validated,published"), &writer, nil), http.StatusOK, &page)
	if len(page.Records) != 1 || page.Records[0].ID != made.RecordID {
		t.Fatalf("reusable list: %d records", len(page.Records))
	}
	e.wantError(e.do("GET", "/v1/memories?status=checked", &writer, nil), 400, mneme.EINVALID, `status "checked"`)
}
