package consolidate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/llm"
	"github.com/mneme-ai/mneme/sqlite"
)

var t0 = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)

func newEngine(t testing.TB, opts ...mneme.Option) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	em, err := hash.New(64)
	if err != nil {
		t.Fatal(err)
	}
	now := t0.Add(30 * 24 * time.Hour)
	return mneme.NewEngine(s, append([]mneme.Option{mneme.WithEmbedder(em), mneme.WithClock(func() time.Time { return now })}, opts...)...)
}

var episodes = []string{
	"Ann: We moved the staging database to Postgres 17 because it has incremental backups.",
	"Bob: The release train now leaves every Tuesday at noon; tag vX.Y.Z and push the tag.",
	"Ann: Thanks!",
	"Bob: The flaky checkout test was caused by a timezone bug in the date picker. We fixed it by pinning UTC.",
	"Ann: Customers in Norway asked for invoices in NOK, so billing now supports multiple currencies.",
	"Bob: Postgres 17 backups run nightly at 02:00 and are kept for 30 days.",
}

// seed remembers the episodes one hour apart in project shop.
func seed(t testing.TB, eng *mneme.Engine, texts ...string) []string {
	t.Helper()
	var ids []string
	for i, text := range texts {
		at := t0.Add(time.Duration(i) * time.Hour)
		speaker, _, _ := strings.Cut(text, ":")
		rec := &mneme.Record{Project: "shop", Type: mneme.Episodic, Kind: "turn", Text: text, Speaker: speaker,
			SessionID: "s1", OccurredAt: &at, Tags: []string{"chat"}}
		if _, err := eng.Remember(context.Background(), []*mneme.Record{rec}, mneme.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	return ids
}

func window() consolidate.Request {
	return consolidate.Request{Project: "shop", Since: "2026-05-01", Until: "2026-05-02"}
}

func count(t *testing.T, eng *mneme.Engine) int {
	t.Helper()
	st, err := eng.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Total
}

func TestSummarizeExtractive(t *testing.T) {
	eng := newEngine(t)
	ids := seed(t, eng, episodes...)
	ctx := context.Background()
	res, err := consolidate.Summarize(ctx, eng, window())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Strategy != consolidate.Extractive || res.Provider != "" || !slices.Equal(res.SourceIDs, ids) {
		t.Fatalf("response %+v", res)
	}
	if res.Words > consolidate.DefaultMaxWords || res.Words != len(strings.Fields(res.Summary)) {
		t.Errorf("words %d for %q", res.Words, res.Summary)
	}
	if !strings.HasPrefix(res.Summary, "2026-05-01: Ann: We moved the staging database") || strings.Contains(res.Summary, "Thanks!") {
		t.Errorf("summary %q", res.Summary)
	}
	rec, err := eng.Get(ctx, res.RecordID, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Type != mneme.Semantic || rec.Kind != "summary" || !slices.Equal(rec.Tags, []string{"summary"}) || rec.Text != "Summary of 6 episodic records in shop from 2026-05-01T00:00:00Z to 2026-05-02T00:00:00Z:\n"+res.Summary ||
		rec.Provenance != mneme.Cited || !strings.HasPrefix(rec.Key, "summary:") {
		t.Errorf("record %+v", rec)
	}
	var linked []string
	for _, l := range rec.Links {
		if l.Type == mneme.LinkDerivedFrom {
			linked = append(linked, l.Target)
		}
	}
	if !slices.Equal(linked, ids) {
		t.Errorf("derived_from %v, want %v", linked, ids)
	}
	want := consolidate.UsedFilters{Project: "shop", Since: "2026-05-01T00:00:00Z", Until: "2026-05-02T00:00:00Z",
		Types: []string{"episodic"}, Limit: 50, MaxWords: 250}
	if fmt.Sprint(res.UsedFilters) != fmt.Sprint(want) {
		t.Errorf("used_filters %+v", res.UsedFilters)
	}
}

// TestIdempotent: the same call gives the same record and writes nothing;
// a new episode in the window gives a new summary that supersedes it.
func TestIdempotentThenSupersede(t *testing.T) {
	eng := newEngine(t)
	seed(t, eng, episodes[:3]...)
	ctx := context.Background()
	first, err := consolidate.Summarize(ctx, eng, window())
	if err != nil {
		t.Fatal(err)
	}
	n := count(t, eng)
	again, err := consolidate.Summarize(ctx, eng, window())
	if err != nil || again.RecordID != first.RecordID || again.Created || again.Summary != first.Summary || count(t, eng) != n {
		t.Fatalf("repeat: %+v, %v; records %d → %d", again, err, n, count(t, eng))
	}
	seed(t, eng, episodes[3])
	next, err := consolidate.Summarize(ctx, eng, window())
	if err != nil || !next.Created || next.RecordID == first.RecordID || next.Supersedes != first.RecordID || len(next.SourceIDs) != 4 {
		t.Fatalf("after a new episode: %+v, %v", next, err)
	}
	old, err := eng.Get(ctx, first.RecordID, mneme.Internal)
	if err != nil || old.Status != mneme.Superseded {
		t.Errorf("old summary %+v, %v", old, err)
	}
	// Other filters are another summary, which supersedes nothing.
	tagged := window()
	tagged.Tags = []string{"chat"}
	other, err := consolidate.Summarize(ctx, eng, tagged)
	if err != nil || other.RecordID == next.RecordID || other.Supersedes != "" {
		t.Errorf("tagged: %+v, %v", other, err)
	}
}

func TestExtractiveDeterministicAndBounded(t *testing.T) {
	var many []string
	for i := range 60 {
		many = append(many, fmt.Sprintf("Ann: On day %d we shipped feature %d to the billing service and measured %d%% fewer errors.", i, i*7, i%13))
	}
	var got []string
	for range 2 {
		eng := newEngine(t)
		seed(t, eng, many...)
		for _, words := range []int{12, 40, 250} {
			req := window()
			req.Until, req.MaxWords, req.Limit = "2026-05-04", consolidate.MaxWords(words), 100
			res, err := consolidate.Summarize(context.Background(), eng, req)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(strings.Fields(res.Summary)); n > words || n == 0 {
				t.Errorf("max_words %d: %d words: %q", words, n, res.Summary)
			}
			got = append(got, res.Summary)
		}
	}
	if !slices.Equal(got[:3], got[3:]) {
		t.Errorf("two runs differ:\n%q\n%q", got[:3], got[3:])
	}
}

func TestLimitTruncates(t *testing.T) {
	eng := newEngine(t)
	ids := seed(t, eng, episodes...)
	req := window()
	req.Limit = 2
	res, err := consolidate.Summarize(context.Background(), eng, req)
	if err != nil || !res.Truncated || !slices.Equal(res.SourceIDs, ids[:2]) {
		t.Fatalf("%+v, %v", res, err)
	}
}

func TestErrors(t *testing.T) {
	eng := newEngine(t)
	seed(t, eng, episodes...)
	readOnly := mneme.WithScope(context.Background(), mneme.Scope{Name: "reader", Clearance: mneme.Internal})
	otherProject := mneme.WithScope(context.Background(), mneme.Scope{Name: "ci", Projects: []string{"ci"}, Write: true})
	for _, tc := range []struct {
		name string
		ctx  context.Context
		edit func(r *consolidate.Request)
		code string
		msg  string
	}{
		{"no since", nil, func(r *consolidate.Request) { r.Since = "" }, mneme.EINVALID, "since"},
		{"no until", nil, func(r *consolidate.Request) { r.Until = " " }, mneme.EINVALID, "until"},
		{"bad time", nil, func(r *consolidate.Request) { r.Since = "last tuesday" }, mneme.EINVALID, "not a time"},
		{"inverted", nil, func(r *consolidate.Request) { r.Since, r.Until = r.Until, r.Since }, mneme.EINVALID, "inverted"},
		{"limit negative", nil, func(r *consolidate.Request) { r.Limit = -1 }, mneme.EINVALID, "limit -1"},
		{"max_words too many", nil, func(r *consolidate.Request) { r.MaxWords = 5000 }, mneme.EINVALID, "max_words"},
		{"strategy", nil, func(r *consolidate.Request) { r.Strategy = "magic" }, mneme.EINVALID, "strategy"},
		{"empty", nil, func(r *consolidate.Request) { r.Since, r.Until = "2020-01-01", "2020-02-01" }, mneme.EINVALID, "nothing to summarize"},
		{"empty by tag", nil, func(r *consolidate.Request) { r.Tags = []string{"nope"} }, mneme.EINVALID, "tags nope"},
		{"no model", nil, func(r *consolidate.Request) { r.Strategy = consolidate.Abstractive }, mneme.EUNAVAILABLE, "no language model"},
		{"read-only", readOnly, nil, mneme.EFORBIDDEN, "read-only"},
		{"other project", otherProject, nil, mneme.EFORBIDDEN, "does not cover"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, req := tc.ctx, window()
			if ctx == nil {
				ctx = context.Background()
			}
			if tc.edit != nil {
				tc.edit(&req)
			}
			n := count(t, eng)
			res, err := consolidate.Summarize(ctx, eng, req)
			if mneme.ErrorCode(err) != tc.code || !strings.Contains(mneme.ErrorMessage(err), tc.msg) {
				t.Fatalf("got %+v, %v; want %s mentioning %q", res, err, tc.code, tc.msg)
			}
			if count(t, eng) != n {
				t.Error("something was written")
			}
		})
	}
}

func TestJSONCounts(t *testing.T) {
	for _, body := range []string{`{"since":"1d","until":"now","limit":0}`, `{"since":"1d","until":"now","max_words":0}`, `{"since":"1d","until":"now","limit":"x"}`} {
		var r consolidate.Request
		if err := mneme.DecodeStrict([]byte(body), &r); mneme.ErrorCode(err) != mneme.EINVALID {
			t.Errorf("%s: %v", body, err)
		}
	}
}

// chatServer is a fake Ollama: it checks the summary request's shape and
// answers with reply; down makes its health check fail.
func chatServer(t *testing.T, reply string, down bool) (*httptest.Server, *int) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
			if down {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, `{"models":[]}`)
		case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
			calls++
			var body struct {
				Model    string              `json:"model"`
				Stream   bool                `json:"stream"`
				Messages []map[string]string `json:"messages"`
				Options  map[string]float64  `json:"options"`
			}
			if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
				t.Errorf("body: %v", err)
			}
			if body.Model != "m1" || body.Stream || len(body.Messages) != 2 || body.Options["temperature"] != 0 || body.Options["num_predict"] != 2*250+50 ||
				body.Messages[0]["role"] != "system" || body.Messages[0]["content"] != fmt.Sprintf(consolidate.Prompt, 250) ||
				body.Messages[1]["role"] != "user" || !strings.HasPrefix(body.Messages[1]["content"], "2026-05-01: Ann: We moved the staging database to Postgres 17") {
				t.Errorf("request %+v", body)
			}
			json.NewEncoder(w).Encode(map[string]any{"message": map[string]string{"role": "assistant", "content": reply}})
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func withModel(t *testing.T, url string) mneme.Option {
	g, err := llm.New(llm.Config{Provider: "ollama", BaseURL: url, Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	return mneme.WithHypothesisGenerator(g)
}

func TestAbstractive(t *testing.T) {
	srv, calls := chatServer(t, "  On 2026-05-01 staging moved to Postgres 17 for incremental backups.\n", false)
	eng := newEngine(t, withModel(t, srv.URL))
	seed(t, eng, episodes...)
	ctx := context.Background()
	for _, s := range []consolidate.Strategy{consolidate.Abstractive, consolidate.Auto} {
		req := window()
		req.Strategy = s
		res, err := consolidate.Summarize(ctx, eng, req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Strategy != consolidate.Abstractive || res.Provider != "ollama" || res.Model != "m1" || res.PromptVersion != consolidate.PromptVersion ||
			res.Summary != "On 2026-05-01 staging moved to Postgres 17 for incremental backups." || res.FallbackReason != "" {
			t.Errorf("%s: %+v", s, res)
		}
		rec, _ := eng.Get(ctx, res.RecordID, mneme.Internal)
		if rec == nil || rec.Provenance != mneme.Assumed {
			t.Errorf("record %+v", rec)
		}
	}
	if *calls != 1 { // auto found the same summary: the model ran once
		t.Errorf("the model was called %d times", *calls)
	}
}

func TestAutoFallsBack(t *testing.T) {
	srv, calls := chatServer(t, "unused", true)
	eng := newEngine(t, withModel(t, srv.URL))
	seed(t, eng, episodes...)
	req := window()
	req.Strategy = consolidate.Auto
	res, err := consolidate.Summarize(context.Background(), eng, req)
	if err != nil || res.Strategy != consolidate.Extractive || !strings.Contains(res.FallbackReason, "HTTP 503") || *calls != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	req.Strategy = consolidate.Abstractive
	n := count(t, eng)
	if _, err := consolidate.Summarize(context.Background(), eng, req); mneme.ErrorCode(err) != mneme.EUNAVAILABLE || !strings.Contains(mneme.ErrorMessage(err), srv.URL) || count(t, eng) != n {
		t.Errorf("abstractive with the model down: %v", err)
	}
	srv.Close() // unreachable, not only unhealthy
	req.Strategy = consolidate.Auto
	if res, err := consolidate.Summarize(context.Background(), eng, req); err != nil || res.Strategy != consolidate.Extractive || res.Created {
		t.Errorf("auto with the server gone: %+v, %v", res, err)
	}
}

// TestAbstractiveCredentialMasked: a credential the model wrote is masked
// in the stored summary, and the response shows the summary as stored.
func TestAbstractiveCredentialMasked(t *testing.T) {
	const password = "Hunter2Prod"
	srv, _ := chatServer(t, "Staging moved to Postgres 17; its password="+password+" is in the vault.", false)
	eng := newEngine(t, withModel(t, srv.URL))
	seed(t, eng, episodes...)
	req := window()
	req.Strategy = consolidate.Abstractive
	res, err := consolidate.Summarize(context.Background(), eng, req)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := eng.Get(context.Background(), res.RecordID, mneme.Internal)
	if err != nil || strings.Contains(rec.Text, password) || !strings.HasSuffix(rec.Text, "\n"+res.Summary) {
		t.Fatalf("stored %q, %v", rec.Text, err)
	}
	if strings.Contains(res.Summary, password) || !strings.Contains(res.Summary, "[REDACTED:") || res.Words != len(strings.Fields(res.Summary)) {
		t.Fatalf("the response shows %q (%d words), not what was stored", res.Summary, res.Words)
	}
}

// TestAutoFallsBackOnGarbage: a model that passes its health check but
// answers what is not a summary (not JSON, no text) makes auto write the
// extractive summary and say why; abstractive fails as with a model down.
func TestAutoFallsBackOnGarbage(t *testing.T) {
	for name, body := range map[string]string{"not JSON": "<html>bad gateway</html>", "no text": `{"message":{"role":"assistant","content":" "}}`} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/tags" {
					io.WriteString(w, `{"models":[]}`)
					return
				}
				io.WriteString(w, body)
			}))
			t.Cleanup(srv.Close)
			eng := newEngine(t, withModel(t, srv.URL))
			seed(t, eng, episodes...)
			req := window()
			req.Strategy = consolidate.Abstractive
			if _, err := consolidate.Summarize(context.Background(), eng, req); mneme.ErrorCode(err) != mneme.EUNAVAILABLE || count(t, eng) != len(episodes) {
				t.Fatalf("abstractive with a model answering garbage: %v", err)
			}
			req.Strategy = consolidate.Auto
			res, err := consolidate.Summarize(context.Background(), eng, req)
			if err != nil || res.Strategy != consolidate.Extractive || !res.Created || res.Summary == "" || !strings.Contains(res.FallbackReason, srv.URL) {
				t.Fatalf("auto with a model answering garbage: %+v, %v", res, err)
			}
			rec, _ := eng.Get(context.Background(), res.RecordID, mneme.Internal)
			if rec == nil || !strings.Contains(string(rec.Meta), "fallback_reason") {
				t.Errorf("the stored summary does not say why it is extractive: %+v", rec)
			}
		})
	}
}
