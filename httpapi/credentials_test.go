package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
)

// TestCredentialInAnyField: a credential in a tag, a meta value or the
// source is refused on every write route, naming the field, and nothing is
// written; with redact it is masked.
func TestCredentialInAnyField(t *testing.T) {
	const token = "gh" + "p_abcdefghijklmnopqrstuvwxyz0123456789"
	e := newEnv(t, httpapi.Config{})
	id := e.remember(nil, mneme.RememberRequest{Text: "the deploy runs at noon", Tags: []string{"ops"}})
	before := e.stats()
	export := string(e.do("GET", "/v1/export", nil, nil).body)
	if !strings.Contains(export, id) {
		t.Fatalf("export = %s", export)
	}

	for _, tc := range []struct {
		name, method, path string
		body               any
		parts              []string
	}{
		{"tag", "POST", "/v1/memories", mneme.RememberRequest{Text: "x", Tags: []string{"ops", "token=" + token}},
			[]string{"tags[1] contains a credential (a GitHub token), so nothing was written"}},
		{"meta value", "POST", "/v1/memories", mneme.RememberRequest{Text: "x", Meta: json.RawMessage(`{"db_url":"postgres://app:Sup3rS3cret@db/app"}`)},
			[]string{"meta.db_url contains a credential (a password in a connection string)"}},
		{"source", "POST", "/v1/memories", mneme.RememberRequest{Text: "x", Source: "https://deploy:Tok3nValue42@git.example.org/o/r"},
			[]string{"source.uri contains a credential"}},
		{"batch", "POST", "/v1/memories/batch", map[string]any{"memories": []mneme.RememberRequest{{Text: "fine"}, {Text: "x", Speaker: "bot password=hunter22"}}},
			[]string{"memories[1]: speaker contains a credential"}},
		{"patch tags", "PATCH", "/v1/memories/" + id, mneme.Patch{Tags: &[]string{"ops", token}},
			[]string{"tags[1] contains a credential (a GitHub token)"}},
		{"patch meta", "PATCH", "/v1/memories/" + id, map[string]any{"meta": map[string]any{"db": map[string]string{"password": "hunter22"}}},
			[]string{"meta.db.password contains a credential"}},
		{"import", "POST", "/v1/import", `{"text":"one"}` + "\n" + `{"text":"two","key":"` + token + `"}` + "\n",
			[]string{"line 2: key contains a credential"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := e.do(tc.method, tc.path, nil, tc.body)
			e.wantError(res, http.StatusBadRequest, mneme.EINVALID, tc.parts...)
			if strings.Contains(string(res.body), "hunter22") || strings.Contains(string(res.body), "Sup3rS3cret") || strings.Contains(string(res.body), token) {
				t.Fatalf("the refusal repeats the credential: %s", res.body)
			}
			if after := string(e.do("GET", "/v1/export", nil, nil).body); after != export || e.stats() != before {
				t.Fatalf("a refused write changed the store:\n%s\n---\n%s", export, after)
			}
		})
	}

	var wr mneme.WriteResult
	e.want(e.do("POST", "/v1/memories", nil, mneme.RememberRequest{Text: "deploy notes", Tags: []string{"token=" + token},
		Meta: json.RawMessage(`{"db_url":"postgres://app:Sup3rS3cret@db/app"}`), Redact: true}), http.StatusCreated, &wr)
	got := string(e.do("GET", "/v1/memories/"+wr.ID, nil, nil).body)
	if strings.Contains(got, token) || strings.Contains(got, "Sup3rS3cret") || strings.Count(strings.ToLower(got), "[redacted:") != 2 {
		t.Fatalf("redacted record = %s", got)
	}
}
