package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cacheHome is a home whose embedder is the fast hash one.
func cacheHome(t *testing.T, extra string) string {
	t.Helper()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"}`+extra+`}`), 0o600)
	return home
}

type cacheReply struct {
	Cache map[string]string `json:"cache_status"`
}

// TestCacheInvalidatedAcrossProcesses: a running server caches recalls,
// reranked recalls and context packages; a write by a CLI process to the
// same project makes every one of them miss, a write to another project
// none. Query embeddings do not depend on what is stored: they still hit.
func TestCacheInvalidatedAcrossProcesses(t *testing.T) {
	home := cacheHome(t, "")
	ok(t, home, "remember", "the release train leaves on Thursdays", "--project", "ops")
	ok(t, home, "remember", "the staging database runs postgres 17", "--project", "ops")
	s := serve(t, home)
	// A reranked recall of another k reads the same candidates: it misses
	// the recall's entry and hits the reranker's.
	rerank := `{"query":"staging database version","project":"ops","rerank":true,"k":`
	calls := []struct{ path, body, again, kind string }{
		{"/v1/recall", `{"query":"when does the release train leave","project":"ops"}`, "", "retrieval_result"},
		{"/v1/recall", rerank + `1}`, rerank + `2}`, "rerank_result"},
		{"/v1/context", `{"query":"release train and staging","project":"ops","budget":200}`, "", "context_package"},
	}
	status := func(path, body string) map[string]string {
		t.Helper()
		var r cacheReply
		if code := httpJSON(t, "POST", s.url+path, body, &r); code != 200 {
			t.Fatalf("%s %s = %d", path, body, code)
		}
		return r.Cache
	}
	want := func(when string, st map[string]string, kind, v string) {
		t.Helper()
		if st[kind] != v {
			t.Fatalf("%s: cache status %v, want %s %s", when, st, kind, v)
		}
	}
	for _, c := range calls {
		want("first call", status(c.path, c.body), c.kind, "miss")
		if c.again == "" {
			c.again = c.body
		}
		want("second call", status(c.path, c.again), c.kind, "hit")
	}
	// A verified answer, stored over HTTP, comes back to a context request
	// that proves its token.
	verified := `{"query":"when does the release train leave","project":"ops","budget":200,"verification_token":"t1","answer_scope":"p/m/v"}`
	var put struct{ Stored bool }
	if code := httpJSON(t, "POST", s.url+"/v1/answers", `{"request":{"query":"when does the release train leave","project":"ops","budget":200},
		"answer":"The release train leaves on Thursdays.","verification_token":"t1","provider":"p","model":"m","model_version":"v"}`, &put); code != 200 || !put.Stored {
		t.Fatalf("POST /v1/answers = %d %+v", code, put)
	}
	want("a verified answer", status("/v1/context", verified), "verified_answer", "hit")
	calls = append(calls, struct{ path, body, again, kind string }{"/v1/context", verified, "", "verified_answer"})
	ok(t, home, "remember", "an unrelated note", "--project", "elsewhere")
	for _, c := range calls {
		if c.again != "" { // the reranker's entry is read only on a recall's miss: another k
			c.body = rerank + `3}`
		}
		want("after a write to another project", status(c.path, c.body), c.kind, "hit")
	}
	ok(t, home, "remember", "the release train now leaves on Fridays", "--project", "ops")
	for _, c := range calls {
		if c.again != "" {
			c.body = rerank + `4}`
		}
		st := status(c.path, c.body)
		want("after a CLI write to the project", st, c.kind, "miss")
		if c.kind == "retrieval_result" {
			want("after a CLI write to the project", st, "query_embedding", "hit")
		}
	}
	// A CLI process reads what an earlier one kept.
	ok(t, home, "recall", "when does the release train leave", "--project", "ops")
	out := ok(t, home, "recall", "when does the release train leave", "--project", "ops", "--json")
	if r := decode[cacheReply](t, out); r.Cache["retrieval_result"] != "hit" {
		t.Fatalf("a repeated CLI recall missed: %v", r.Cache)
	}
	type reported struct {
		Report struct {
			Cache map[string]string `json:"cache"`
		} `json:"report"`
	}
	rep := decode[reported](t, ok(t, home, "recall", "when does the release train leave", "--project", "ops", "--json", "--report"))
	if rep.Report.Cache["retrieval_result"] == "" {
		t.Fatalf("the quality report has no cache status: %+v", rep)
	}
	// Recency weighting changes with the clock: never cached.
	ok(t, home, "context", "release train", "--project", "ops", "--half-life", "30d")
	if r := decode[cacheReply](t, ok(t, home, "context", "release train", "--project", "ops", "--half-life", "30d", "--json")); r.Cache["context_package"] != "miss" {
		t.Fatalf("a half-life package was cached: %v", r.Cache)
	}
	if !strings.Contains(ok(t, home, "cache", "stats"), "retrieval_result") {
		t.Fatal("cache stats do not list retrieval_result")
	}
}

// TestCacheBadInput: unknown kinds, prune without a selection and bad TTLs
// exit 2 and change nothing.
func TestCacheBadInput(t *testing.T) {
	home := cacheHome(t, "")
	ok(t, home, "remember", "the release train leaves on Thursdays")
	ok(t, home, "recall", "release train")
	before := ok(t, home, "cache", "stats", "--json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cache", "prune"}, "prune needs a selection"},
		{[]string{"cache", "prune", "--kind", "bogus"}, `cache kind "bogus" is not known`},
		{[]string{"cache", "clear"}, "clear needs --kind"},
		{[]string{"cache", "clear", "--kind", "bogus"}, `cache kind "bogus" is not known`},
		{[]string{"cache", "wipe"}, "unknown cache subcommand"},
	} {
		r := mneme(t, home, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("mneme %v: exit %d, %s; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if after := ok(t, home, "cache", "stats", "--json"); after != before {
		t.Fatalf("bad input changed the cache:\n%s\n%s", before, after)
	}
	for _, c := range []struct{ ttl, want string }{
		{`"retrieval_result":"-1h"`, "negative"},
		{`"retrieval_result":"400d"`, "over the limit"},
		{`"recall":"6h"`, `cache kind "recall" is not known`},
		{`"context_package":12`, "must be a duration"},
	} {
		bad := cacheHome(t, `,"cache":{"ttl":{`+c.ttl+`}}`)
		r := mneme(t, bad, "", "recall", "x")
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("ttl %s: exit %d, %s; want 2 and %q", c.ttl, r.code, r.stderr, c.want)
		}
	}
}

// TestCacheTTLConfig: null keeps entries until invalidated, "off" turns a
// kind off, and "off": true the whole cache.
func TestCacheTTLConfig(t *testing.T) {
	home := cacheHome(t, `,"cache":{"ttl":{"retrieval_result":null,"context_package":"off"}}`)
	ok(t, home, "remember", "the release train leaves on Thursdays")
	out := ok(t, home, "cache", "stats")
	if !strings.Contains(out, "retrieval_result") || !strings.Contains(out, "ttl until invalidated") || !strings.Contains(out, "ttl off") {
		t.Fatalf("stats:\n%s", out)
	}
	ok(t, home, "context", "release train")
	// With packages off, the recall under the package is cached instead.
	if r := decode[cacheReply](t, ok(t, home, "context", "release train", "--json")); r.Cache["context_package"] != "" || r.Cache["retrieval_result"] != "hit" {
		t.Fatalf("context_package off: %v", r.Cache)
	}
	off := cacheHome(t, `,"cache":{"off":true}`)
	ok(t, off, "remember", "the release train leaves on Thursdays")
	ok(t, off, "recall", "release train")
	if r := decode[cacheReply](t, ok(t, off, "recall", "release train", "--json")); len(r.Cache) != 0 {
		t.Fatalf("cache off: %v", r.Cache)
	}
}

// TestCacheDoctor: doctor's probe round-trips and leaves the cache as it
// found it.
func TestCacheDoctor(t *testing.T) {
	home := cacheHome(t, "")
	ok(t, home, "remember", "the release train leaves on Thursdays")
	ok(t, home, "recall", "release train")
	before := ok(t, home, "cache", "stats", "--json")
	out := ok(t, home, "doctor")
	if !strings.Contains(out, "a probe entry was written, read, missed once expired and pruned") {
		t.Fatalf("doctor:\n%s", out)
	}
	if after := ok(t, home, "cache", "stats", "--json"); after != before {
		t.Fatalf("doctor left the cache changed:\n%s\n%s", before, after)
	}
}

// TestVerifiedAnswers: an answer the check accepts is stored and comes
// back only for the same token, answer scope and package; outputs never
// show the token, and the answer only on a hit; a write to the project
// invalidates it; bad input exits 2.
func TestVerifiedAnswers(t *testing.T) {
	home := cacheHome(t, "")
	ok(t, home, "remember", "the release train leaves on Thursdays", "--project", "ops")
	put := func(answer, token, version string) string {
		path := filepath.Join(t.TempDir(), "answer.json")
		os.WriteFile(path, []byte(`{"request":{"query":"when does the release train leave","project":"ops","budget":200},
			"answer":`+quoteJSON(answer)+`,"verification_token":`+quoteJSON(token)+`,"provider":"openai","model":"gpt-4o","model_version":`+quoteJSON(version)+`}`), 0o600)
		return path
	}
	type putReply struct {
		Stored        bool   `json:"stored"`
		PackageSHA256 string `json:"package_sha256"`
	}
	answer := "The release train leaves on Thursdays."
	out := ok(t, home, "answer", "put", "--request", put(answer, "tok-secret-1", "2024-08-06"), "--json")
	if r := decode[putReply](t, out); !r.Stored || r.PackageSHA256 == "" || strings.Contains(out, "tok-secret-1") || strings.Contains(out, answer) {
		t.Fatalf("answer put: %s", out)
	}
	if r := decode[putReply](t, ok(t, home, "answer", "put", "--request", put("The train leaves from Berlin at 9 on Mondays.", "tok-secret-1", "2024-08-06"), "--json")); r.Stored {
		t.Fatal("an unsupported answer was stored")
	}
	type ctxReply struct {
		Cache    map[string]string `json:"cache_status"`
		Verified struct {
			Status, Answer string
		} `json:"verified_answer"`
	}
	ask := func(token, scope string) (ctxReply, string) {
		t.Helper()
		out := ok(t, home, "context", "when does the release train leave", "--project", "ops", "--budget", "200",
			"--verification-token", token, "--answer-scope", scope, "--json")
		if strings.Contains(out, token) {
			t.Fatalf("the token is in the output: %s", out)
		}
		return decode[ctxReply](t, out), out
	}
	if r, _ := ask("tok-secret-1", "openai/gpt-4o/2024-08-06"); r.Verified.Status != "hit" || r.Verified.Answer != answer || r.Cache["verified_answer"] != "hit" {
		t.Fatalf("same token and scope: %+v", r)
	}
	for _, c := range []struct{ token, scope string }{{"tok-other", "openai/gpt-4o/2024-08-06"}, {"tok-secret-1", "openai/gpt-4o/2024-05-13"}} {
		if r, out := ask(c.token, c.scope); r.Verified.Status != "miss" || strings.Contains(out, answer) {
			t.Fatalf("token %s scope %s: %s", c.token, c.scope, out)
		}
	}
	ok(t, home, "remember", "the release train moved to Fridays", "--project", "ops")
	if r, _ := ask("tok-secret-1", "openai/gpt-4o/2024-08-06"); r.Verified.Status != "miss" {
		t.Fatalf("after a write to the project: %+v", r)
	}
	before := ok(t, home, "cache", "stats", "--json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"answer", "put", "--request", put(answer, "", "v1")}, "verification_token is empty"},
		{[]string{"answer", "put", "--request", put(answer, "t", "")}, "answer scope"},
		{[]string{"answer", "put"}, "no request given"},
		{[]string{"context", "q", "--verification-token", "", "--answer-scope", "a/b/c"}, "verification_token is empty"},
		{[]string{"context", "q", "--verification-token", "t", "--answer-scope", "a/b"}, "needs three parts"},
		{[]string{"context", "q", "--verification-token", "t", "--answer-scope", "a//c"}, "has a part missing"},
		{[]string{"context", "q", "--verification-token", "t"}, "needs answer_scope"},
	} {
		r := mneme(t, home, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("mneme %v: exit %d, %s; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if after := ok(t, home, "cache", "stats", "--json"); after != before {
		t.Fatalf("bad input changed the cache:\n%s\n%s", before, after)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
