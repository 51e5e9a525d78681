package httpapi_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
)

var (
	sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$`)
	labelPair  = regexp.MustCompile(`^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)`)
)

// parseMetrics reads the exposition text line by line into series keyed
// name{labels} (labels as written), failing on any line it cannot parse.
func parseMetrics(t *testing.T, text string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d does not parse: %q", i+1, line)
		}
		for rest := m[2]; rest != ""; {
			p := labelPair.FindStringSubmatch(rest)
			if p == nil {
				t.Fatalf("line %d: labels do not parse at %q", i+1, rest)
			}
			rest = rest[len(p[0]):]
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("line %d: value %q: %v", i+1, m[3], err)
		}
		key := m[1]
		if m[2] != "" {
			key += "{" + m[2] + "}"
		}
		out[key] = v
	}
	return out
}

func TestMetrics(t *testing.T) {
	e := newEnv(t, httpapi.Config{StoreSize: func() int64 { return 12345 }})
	id := e.remember(nil, mneme.RememberRequest{Text: "Releases are cut on Tuesdays."})
	e.want(e.do("GET", "/v1/memories/"+id, nil, nil), 200, nil)
	e.want(e.do("POST", "/v1/recall", nil, `{"query":"releases","expand":1}`), 200, nil)
	e.want(e.do("GET", "/v1/nowhere", nil, nil), 404, nil)
	res := e.do("GET", "/metrics", nil, nil)
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("metrics: %d %q", res.status, res.header.Get("Content-Type"))
	}
	text := string(res.body)
	if strings.Contains(text, id) {
		t.Fatal("a record id became a label value")
	}
	got := parseMetrics(t, text)
	for _, family := range []string{"mneme_http_requests_total counter", "mneme_http_request_duration_seconds histogram",
		"mneme_recall_stage_duration_seconds histogram", "mneme_store_size_bytes gauge"} {
		if !strings.Contains(text, "# TYPE "+family+"\n") {
			t.Errorf("no # TYPE %s", family)
		}
	}
	want := map[string]float64{
		`mneme_http_requests_total{route="POST /v1/memories",method="POST",code="201"}`:    1,
		`mneme_http_requests_total{route="GET /v1/memories/{id}",method="GET",code="200"}`: 1,
		`mneme_http_requests_total{route="unmatched",method="GET",code="404"}`:             1,
		`mneme_http_request_duration_seconds_count{route="POST /v1/recall"}`:               1,
		`mneme_http_request_duration_seconds_bucket{route="POST /v1/recall",le="+Inf"}`:    1,
		`mneme_store_size_bytes`: 12345,
	}
	for _, stage := range []string{"embed", "search", "rank", "expand"} {
		want[`mneme_recall_stage_duration_seconds_count{stage="`+stage+`"}`] = 1
		want[`mneme_recall_stage_duration_seconds_bucket{stage="`+stage+`",le="+Inf"}`] = 1
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	// Buckets are cumulative and end at the count.
	prev := 0.0
	for _, le := range []string{"0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"} {
		v, ok := got[`mneme_http_request_duration_seconds_bucket{route="POST /v1/memories",le="`+le+`"}`]
		if !ok || v < prev {
			t.Fatalf("bucket le=%s: %v (after %v, present %v)", le, v, prev, ok)
		}
		prev = v
	}
}

// TestLogs: one JSON line per request with its route pattern, status,
// duration, size and token name; never a memory's text, a query or a secret.
func TestLogs(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer}})
	text, query := "The vault combination is in the blue binder.", "where is the vault combination"
	id := e.remember(&writer, mneme.RememberRequest{Text: text})
	e.want(e.do("POST", "/v1/recall", &writer, mneme.RecallRequest{Query: query}), 200, nil)
	e.want(e.do("GET", "/v1/memories/"+id, &writer, nil), 200, nil)
	e.want(e.do("POST", "/v1/recall", &writer, `{"query":"x","k":-1}`), 400, nil)
	e.want(e.do("GET", "/v1/stats", nil, nil), 401, nil)
	logs := e.logs.String()
	for _, secret := range []string{text, "vault", writer.Token} {
		if strings.Contains(logs, secret) {
			t.Fatalf("the log holds %q:\n%s", secret, logs)
		}
	}
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d log lines for 5 requests:\n%s", len(lines), logs)
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &entry); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"method": "GET", "route": "GET /v1/memories/{id}", "status": 200.0, "token": "writer"} {
		if entry[k] != v {
			t.Errorf("log %s = %v, want %v: %s", k, entry[k], v, lines[2])
		}
	}
	if _, ok := entry["duration_ms"].(float64); !ok || entry["bytes"].(float64) <= 0 {
		t.Errorf("log line lacks duration_ms or bytes: %s", lines[2])
	}
	if !strings.Contains(lines[3], `"code":"EINVALID"`) || !strings.Contains(lines[4], `"status":401`) {
		t.Errorf("error lines:\n%s\n%s", lines[3], lines[4])
	}
}
