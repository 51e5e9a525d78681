package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/ops"
)

const opsSession = `{"kind":"session","session":"s1","host":"codex","started_at":"2026-05-01T10:00:00Z"}`

func TestOps(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha}})
	before := e.stats()
	for _, c := range []struct {
		name, body string
		tok        *access.Token
		status     int
		code, part string
	}{
		{"unknown field", `{"entries":[` + opsSession + `,{"kind":"run","session":"s1","run":"r1","colour":1}]}`, &writer, 400, mneme.EINVALID, "entries[1].colour: unknown field"},
		{"wrong type", `{"entries":[` + opsSession + `,{"kind":"tool_call","session":"s1","tool":7}]}`, &writer, 400, mneme.EINVALID, "entries[1].tool: must be a string"},
		{"missing session", `{"entries":[{"kind":"tool_call","session":"s9","tool":"Bash"}]}`, &writer, 400, mneme.EINVALID, "entries[0].session: no session"},
		{"missing run", `{"entries":[` + opsSession + `,{"kind":"tool_call","session":"s1","run":"r9","tool":"Bash"}]}`, &writer, 400, mneme.EINVALID, `entries[1].run: no run "r9"`},
		{"invalid utf-8", "{\"entries\":[" + opsSession + ",{\"kind\":\"prompt\",\"session\":\"s1\",\"text\":\"\xff\"}]}", &writer, 400, mneme.EINVALID, "entries[1].text: not valid UTF-8"},
		{"absolute path", `{"entries":[` + opsSession + `,{"kind":"artifact","session":"s1","path":"C:\\Users\\ann\\a.go"}]}`, &writer, 400, mneme.EINVALID, "entries[1].path: absolute path"},
		{"oversized", `{"entries":[` + opsSession + `,{"kind":"tool_call","session":"s1","tool":"Bash","input":"` + strings.Repeat("y", ops.MaxSummaryBytes+1) + `"}]}`, &writer, 400, mneme.EINVALID, "over the limit of 2048 bytes"},
		{"read-only", `{"entries":[` + opsSession + `]}`, &reader, 403, mneme.EFORBIDDEN, "read-only"},
		{"another project", `{"project":"demo","entries":[` + opsSession + `]}`, &alpha, 403, mneme.EFORBIDDEN, "demo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.wantError(e.do("POST", "/v1/ops", c.tok, c.body), c.status, c.code, c.part)
		})
	}
	e.t = t
	if after := e.stats(); after != before {
		t.Fatalf("a refused batch wrote: %s -> %s", before, after)
	}
	var res ops.Result
	e.want(e.do("POST", "/v1/ops", &writer, `{"entries":[`+opsSession+`,{"kind":"run","session":"s1","run":"r1"},{"kind":"route","session":"s1","run":"r1","route_kind":"model","choice":"small","reason":"cheap"}]}`), http.StatusCreated, &res)
	if res.Written != 3 {
		t.Fatalf("write: %+v", res)
	}
	var page ops.Page
	e.want(e.do("GET", "/v1/ops?session=s1&kind=route", &reader, nil), http.StatusOK, &page)
	if len(page.Entries) != 1 || page.Entries[0].Choice != "small" || page.Entries[0].Reason != "cheap" {
		t.Fatalf("read: %+v", page)
	}
	e.wantError(e.do("GET", "/v1/ops?colour=red", &reader, nil), 400, mneme.EINVALID, "unknown query parameter")
	e.wantError(e.do("GET", "/v1/ops?kind=thought", &reader, nil), 400, mneme.EINVALID, "not an ops kind")
	// session and run filter the memory list too.
	var list mneme.ListPage
	e.want(e.do("GET", "/v1/memories?run=r1&kind=route", &reader, nil), http.StatusOK, &list)
	if len(list.Records) != 1 || list.Records[0].Kind != "route" {
		t.Fatalf("list ?run=r1: %+v", list.Records)
	}
	e.wantError(e.do("POST", "/v1/ops/prune", &writer, map[string]any{}), 400, mneme.EINVALID, "before is required")
	var pr mneme.PruneResult
	e.want(e.do("POST", "/v1/ops/prune", &writer, map[string]any{"before": "2100-01-01", "session": "s1"}), http.StatusOK, &pr)
	if pr.Pruned != 3 { // the session, its run, the route
		t.Fatalf("prune: %+v", pr)
	}
}
