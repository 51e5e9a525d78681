package main_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// bin is the mneme binary built once for all end-to-end tests.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mneme-e2e")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "mneme")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		panic("build mneme: " + err.Error() + "\n" + string(out))
	}
	code := skips.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// mneme runs the binary with args against home, feeding stdin.
func mneme(t *testing.T, home, stdin string, args ...string) result {
	t.Helper()
	return mnemeEnv(t, home, stdin, nil, args...)
}

// mnemeEnv is mneme with extra environment variables (they win over the
// test's own environment).
func mnemeEnv(t *testing.T, home, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "MNEME_HOME="+home), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run mneme %v: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// ok runs mneme and fails the test unless it exits 0.
func ok(t *testing.T, home string, args ...string) string {
	t.Helper()
	r := mneme(t, home, "", args...)
	if r.code != 0 {
		t.Fatalf("mneme %v: exit %d: %s", args, r.code, r.stderr)
	}
	return r.stdout
}

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return v
}

type writeJSON struct {
	ID                string `json:"id"`
	Inserted, Updated int
	Skipped           int `json:"skipped_duplicates"`
	Chunks            int
	PendingEmbeddings int    `json:"pending_embeddings"`
	PendingReason     string `json:"pending_reason"`
}

type recallJSON struct {
	ID   string `json:"id"`
	Hits []struct {
		ID      string         `json:"id"`
		Score   float64        `json:"score"`
		Record  map[string]any `json:"record"`
		Explain map[string]any `json:"explain"`
	} `json:"hits"`
	TookMS   *float64 `json:"took_ms"`
	HeldBack int      `json:"held_back"`
}

func TestRememberRecallFlow(t *testing.T) {
	home := t.TempDir()
	w := decode[writeJSON](t, ok(t, home, "remember", "We release with goreleaser when a tag is pushed", "--type", "procedural", "--tags", "release,CI", "--json"))
	if w.ID == "" || w.Inserted != 1 || w.Chunks != 1 {
		t.Fatalf("remember = %+v", w)
	}
	ok(t, home, "remember", "--project", "infra", "Staging runs postgres 17", "--key", "staging-db")
	again := decode[writeJSON](t, ok(t, home, "remember", "We release with goreleaser when a tag is pushed", "--type", "procedural", "--tags", "ci,release", "--json"))
	if again.Skipped != 1 || again.ID != w.ID {
		t.Fatalf("duplicate = %+v", again)
	}
	r := decode[recallJSON](t, ok(t, home, "recall", "how do we release?", "--explain", "--json", "--mode", "lexical"))
	if len(r.Hits) != 1 || r.Hits[0].ID != w.ID || r.Hits[0].Score != 1 || r.TookMS == nil {
		t.Fatalf("lexical recall = %+v", r)
	}
	if e := r.Hits[0].Explain; e["retrieval"] != "bm25" || e["bm25"].(float64) <= 0 || e["vector_rank"].(float64) != 0 {
		t.Fatalf("lexical explain = %v", e)
	}
	// Hybrid (the default) also ranks by meaning: every record is a
	// candidate, but one without a query word and far in meaning is held
	// back unless asked for.
	r = decode[recallJSON](t, ok(t, home, "recall", "how do we release?", "--explain", "--json"))
	if len(r.Hits) != 1 || r.Hits[0].ID != w.ID || r.HeldBack != 1 {
		t.Fatalf("hybrid recall = %+v", r)
	}
	if out := ok(t, home, "recall", "how do we release?"); !strings.Contains(out, "(1 held back without evidence: --include-unmatched shows them)") {
		t.Fatalf("text recall does not say what it held back:\n%s", out)
	}
	if out := ok(t, home, "recall", "quantum chromodynamics"); strings.TrimSpace(out) != "no memories match (2 held back without evidence: --include-unmatched shows them)" {
		t.Fatalf("text recall of nothing:\n%s", out)
	}
	r = decode[recallJSON](t, ok(t, home, "recall", "how do we release?", "--explain", "--json", "--include-unmatched"))
	if len(r.Hits) != 2 || r.HeldBack != 0 || r.Hits[0].ID != w.ID || r.Hits[0].Score <= r.Hits[1].Score || r.Hits[0].Score > 1 {
		t.Fatalf("hybrid recall = %+v", r)
	}
	if e := r.Hits[0].Explain; e["retrieval"] != "hybrid" || e["fusion"] != "weighted" || e["lexical_rank"].(float64) != 1 ||
		e["vector_rank"].(float64) != 1 || e["vector_score"].(float64) <= 0 {
		t.Fatalf("hybrid explain = %v", e)
	}
	if e := r.Hits[1].Explain; e["retrieval"] != "vector" || e["lexical_rank"].(float64) != 0 {
		t.Fatalf("hybrid explain of a vector-only hit = %v", e)
	}
	if tags := r.Hits[0].Record["tags"].([]any); len(tags) != 2 || tags[0] != "ci" || tags[1] != "release" {
		t.Fatalf("tags = %v", tags)
	}
	// Filters run inside the search, in both lanes.
	if r := decode[recallJSON](t, ok(t, home, "recall", "release", "--project", "infra", "--json", "--mode", "lexical")); len(r.Hits) != 0 {
		t.Fatalf("project filter leaked: %+v", r)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "release", "--project", "infra", "--json")); len(r.Hits) != 0 || r.HeldBack != 1 {
		t.Fatalf("project filter leaked into hybrid: %+v", r)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "release", "--project", "infra", "--json", "--include-unmatched")); len(r.Hits) != 1 || r.Hits[0].Record["project"] != "infra" {
		t.Fatalf("project filter leaked into hybrid: %+v", r)
	}
	got := decode[map[string]any](t, ok(t, home, "get", w.ID, "--json"))
	if got["id"] != w.ID || got["type"] != "procedural" {
		t.Fatalf("get = %v", got)
	}
	if !strings.Contains(ok(t, home, "recall", "staging postgres", "--project", "infra"), "Staging runs postgres 17") {
		t.Fatal("human recall output lacks the hit")
	}
	stats := decode[map[string]any](t, ok(t, home, "stats", "--json"))
	if stats["total"].(float64) != 2 {
		t.Fatalf("stats = %v", stats)
	}
}

func TestSupersessionAndHistory(t *testing.T) {
	home := t.TempDir()
	old := decode[writeJSON](t, ok(t, home, "remember", "The API rate limit is 100 rps", "--key", "rate-limit", "--json"))
	cur := decode[writeJSON](t, ok(t, home, "remember", "The API rate limit is 250 rps", "--key", "rate-limit", "--json"))
	r := decode[recallJSON](t, ok(t, home, "recall", "rate limit", "--json"))
	if len(r.Hits) != 1 || r.Hits[0].ID != cur.ID {
		t.Fatalf("recall shows superseded: %+v", r)
	}
	r = decode[recallJSON](t, ok(t, home, "recall", "rate limit", "--include-superseded", "--json"))
	if len(r.Hits) != 2 {
		t.Fatalf("--include-superseded = %d hits", len(r.Hits))
	}
	h := decode[struct{ Records []map[string]any }](t, ok(t, home, "history", "--key", "rate-limit", "--json"))
	if len(h.Records) != 2 || h.Records[0]["id"] != old.ID || h.Records[0]["status"] != "superseded" || h.Records[1]["id"] != cur.ID {
		t.Fatalf("history = %v", h)
	}
}

func TestTTLAndPrune(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "the build cache is warm", "--ttl", "1ms")
	ok(t, home, "remember", "the build machine is fast")
	list := decode[struct{ Records []any }](t, ok(t, home, "list", "--json"))
	if len(list.Records) != 1 {
		t.Fatalf("list shows expired: %d records", len(list.Records))
	}
	p := decode[pruneJSON](t, ok(t, home, "prune", "--expired", "--json"))
	if p.Pruned != 1 || len(p.IDs) != 1 {
		t.Fatalf("prune = %+v", p)
	}
}

func TestSecretsAndCredentials(t *testing.T) {
	home := t.TempDir()
	r := mneme(t, home, "", "remember", "deploy key: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "--json")
	if r.code != 2 || !strings.Contains(r.stderr, "--sensitivity secret") || !strings.Contains(r.stderr, "--redact") {
		t.Fatalf("credential write: exit %d, %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "mneme.db")); err == nil {
		t.Fatal("a refused write created the database")
	}
	s := decode[writeJSON](t, ok(t, home, "remember", "db password=s3cr3t-value", "--sensitivity", "secret", "--json"))
	red := decode[writeJSON](t, ok(t, home, "remember", "db password=s3cr3t-value for staging", "--redact", "--json"))
	if text := decode[map[string]any](t, ok(t, home, "get", red.ID, "--json"))["text"].(string); strings.Contains(text, "s3cr3t-value") {
		t.Fatalf("redacted text = %q", text)
	}
	// Every field is checked and masked, not only the text.
	red = decode[writeJSON](t, ok(t, home, "remember", "deploy notes", "--tags", "ops,token=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
		"--meta", "db_url=postgres://app:Sup3rS3cret@db/app", "--source", "https://deploy:Tok3nValue42@git.example.org/o/r", "--redact", "--json"))
	got := ok(t, home, "get", red.ID, "--json")
	if strings.Contains(got, "ghp_") || strings.Contains(got, "Sup3rS3cret") || strings.Contains(got, "Tok3nValue42") || strings.Count(strings.ToLower(got), "[redacted:") != 3 {
		t.Fatalf("redacted record = %s", got)
	}
	for _, args := range [][]string{{"recall", "password"}, {"list"}, {"export"}} {
		if out := ok(t, home, append(args, "--json")...); strings.Contains(out, s.ID) {
			t.Fatalf("%v shows a secret record without clearance", args)
		}
		if out := ok(t, home, append(args, "--json", "--clearance", "secret")...); !strings.Contains(out, s.ID) {
			t.Fatalf("%v hides the secret record at clearance secret", args)
		}
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ok(t, a, "remember", "first memory", "--tags", "x", "--meta", "ticket=ENG-1", "--at", "2026-01-02T03:04:05.678Z", "--source", "notes.md")
	ok(t, a, "remember", "a fact v1", "--key", "k", "--project", "p2")
	ok(t, a, "remember", "a fact v2", "--key", "k", "--project", "p2", "--ttl", "30d", "--provenance", "verified", "--session", "s1")
	dump := ok(t, a, "export")
	file := filepath.Join(t.TempDir(), "dump.jsonl")
	os.WriteFile(file, []byte(dump), 0o600)
	first := decode[writeJSON](t, ok(t, b, "import", file, "--json"))
	second := decode[writeJSON](t, ok(t, b, "import", file, "--json"))
	if first.Inserted != 3 || second.Inserted+second.Updated != 0 || second.Skipped != 3 {
		t.Fatalf("import twice = %+v then %+v", first, second)
	}
	if again := ok(t, b, "export"); again != dump {
		t.Fatalf("round trip changed the export:\n%s\n---\n%s", dump, again)
	}
	if p2 := ok(t, a, "export", "--project", "p2"); strings.Count(p2, "\n") != 2 {
		t.Fatalf("export --project = %q", p2)
	}
}

func TestRecallBatchAndRequest(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "alpha bravo charlie")
	ok(t, home, "remember", "delta echo foxtrot", "--project", "other")
	dir := t.TempDir()
	batch := filepath.Join(dir, "q.jsonl")
	os.WriteFile(batch, []byte(`{"id":"q1","query":"alpha","mode":"lexical"}
{"id":"q2","query":"echo","project":"other","k":5}

{"query":"nothing here matches zulu","mode":"lexical"}
`), 0o600)
	lines := strings.Split(strings.TrimSpace(ok(t, home, "recall", "--batch", batch, "--json")), "\n")
	if len(lines) != 3 {
		t.Fatalf("batch gave %d lines", len(lines))
	}
	q1, q2, q3 := decode[recallJSON](t, lines[0]), decode[recallJSON](t, lines[1]), decode[recallJSON](t, lines[2])
	if q1.ID != "q1" || len(q1.Hits) != 1 || q2.ID != "q2" || len(q2.Hits) != 1 || q3.ID != "" || len(q3.Hits) != 0 {
		t.Fatalf("batch results out of order or wrong: %v", lines)
	}
	req := filepath.Join(dir, "r.json")
	os.WriteFile(req, []byte(`{"query":"foxtrot","project":"other","since":"2020-01-01","until":"2100-01-01"}`), 0o600)
	if r := decode[recallJSON](t, ok(t, home, "recall", "--request", req, "--json")); len(r.Hits) != 1 {
		t.Fatalf("request = %+v", r)
	}
}

func TestForget(t *testing.T) {
	home := t.TempDir()
	a := decode[writeJSON](t, ok(t, home, "remember", "old note", "--project", "p", "--tags", "tmp", "--json"))
	ok(t, home, "remember", "kept note", "--project", "p")
	dry := decode[map[string]any](t, ok(t, home, "forget", "--project", "p", "--tags", "tmp", "--dry-run", "--json"))
	if dry["dry_run"] != true || len(dry["ids"].([]any)) != 1 {
		t.Fatalf("dry run = %v", dry)
	}
	if n := decode[struct{ Records []any }](t, ok(t, home, "list", "--json")).Records; len(n) != 2 {
		t.Fatal("dry run deleted something")
	}
	ok(t, home, "forget", a.ID)
	if r := mneme(t, home, "", "get", a.ID, "--json"); r.code != 1 || !strings.Contains(r.stderr, "ENOTFOUND") {
		t.Fatalf("get forgotten: %+v", r)
	}
	ok(t, home, "forget", "--project", "p")
	if n := decode[struct{ Records []any }](t, ok(t, home, "list", "--json")).Records; len(n) != 0 {
		t.Fatal("forget --project left records")
	}
}

func TestIngest(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(repo, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write(".gitignore", "secret-notes/\n")
	write("docs/release.md", "# Release\n\nTag the commit and push; goreleaser builds the binaries.\n\n## Rollback\n\nRevert the tag and redeploy the previous version.\n")
	write("main.go", "package main\n\nfunc main() { println(\"hi\") }\n")
	write("secret-notes/x.md", "ignored by gitignore\n")
	write("node_modules/pkg/index.js", "noise\n")
	write("logo.bin", "\x00\x01\x02binary")
	type ingestJSON struct {
		Files, Unchanged, Inserted, Updated, Deleted int
		Removed                                      int `json:"removed_documents"`
	}
	first := decode[ingestJSON](t, ok(t, home, "ingest", repo, "--project", "repo", "--chunk-tokens", "20", "--json"))
	if first.Files != 2 || first.Inserted < 3 {
		t.Fatalf("first ingest = %+v", first)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "ignored gitignore noise", "--project", "repo", "--json", "--mode", "lexical")); len(r.Hits) != 0 {
		t.Fatalf("ignored files were ingested: %+v", r.Hits)
	}
	again := decode[ingestJSON](t, ok(t, home, "ingest", repo, "--project", "repo", "--chunk-tokens", "20", "--json"))
	if again.Unchanged != 2 || again.Inserted+again.Updated+again.Deleted != 0 {
		t.Fatalf("unchanged re-ingest = %+v", again)
	}
	write("docs/release.md", "# Release\n\nTag the commit and push; goreleaser builds the binaries.\n\n## Rollback\n\nUse the rollback workflow in CI.\n")
	changed := decode[ingestJSON](t, ok(t, home, "ingest", repo, "--project", "repo", "--chunk-tokens", "20", "--json"))
	if changed.Unchanged != 1 || changed.Inserted == 0 || changed.Deleted == 0 {
		t.Fatalf("changed ingest = %+v", changed)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "redeploy", "--project", "repo", "--json", "--mode", "lexical")); len(r.Hits) != 0 {
		t.Fatal("stale chunk survived a change")
	}
	r := decode[recallJSON](t, ok(t, home, "recall", "rollback workflow", "--project", "repo", "--json"))
	src := r.Hits[0].Record["source"].(map[string]any)
	if src["parent"] == nil || !strings.HasSuffix(src["uri"].(string), "docs/release.md") || src["line_start"] == nil {
		t.Fatalf("chunk source = %v", src)
	}
	os.Remove(filepath.Join(repo, "main.go"))
	synced := decode[ingestJSON](t, ok(t, home, "ingest", repo, "--project", "repo", "--sync", "--json"))
	if synced.Removed != 1 {
		t.Fatalf("sync = %+v", synced)
	}
	if r := decode[recallJSON](t, ok(t, home, "recall", "println", "--project", "repo", "--json", "--mode", "lexical")); len(r.Hits) != 0 {
		t.Fatal("removed file's chunks survived --sync")
	}
}

// TestConcurrentWriters starts ten remember processes at once on one home:
// every write lands and no "database is locked" reaches the user.
func TestConcurrentWriters(t *testing.T) {
	home := t.TempDir()
	const n = 10
	var wg sync.WaitGroup
	results := make([]result, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = mneme(t, home, "", "remember", "concurrent memory number", string(rune('a'+i)), "--json")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 || strings.Contains(r.stderr, "locked") {
			t.Fatalf("writer %d: exit %d: %s", i, r.code, r.stderr)
		}
	}
	st := decode[map[string]any](t, ok(t, home, "stats", "--json"))
	if st["total"].(float64) != n {
		t.Fatalf("%v records after %d writers", st["total"], n)
	}
}

// TestRecallHyDE: --hyde asks the configured language model (an Ollama
// stand-in here) for a hypothesis, reports its generator, and falls back,
// saying so, when the model is down; a request can supply its own.
func TestRecallHyDE(t *testing.T) {
	var calls atomic.Int32
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/chat" {
			http.NotFound(w, r)
			return
		}
		calls.Add(1)
		io.WriteString(w, `{"message":{"role":"assistant","content":"Oscar is my guinea pig."}}`)
	}))
	defer llm.Close()
	home := t.TempDir()
	ok(t, home, "remember", "Oscar, my guinea pig, loves hay")
	ok(t, home, "remember", "The deploy runs on Fridays")
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"llm":{"provider":"ollama","url":"`+llm.URL+`","model":"tiny"}}`), 0o600)
	type hydeJSON struct {
		Hits           []struct{ ID string }
		Degraded       bool   `json:"degraded"`
		DegradedReason string `json:"degraded_reason"`
		HyDE           *struct {
			Text             string `json:"hypothesis"`
			GeneratorID      string `json:"generator_id"`
			GeneratorVersion string `json:"generator_version"`
		} `json:"hyde"`
	}
	r := decode[hydeJSON](t, ok(t, home, "recall", "which pet do I have", "--hyde", "--json"))
	if r.HyDE == nil || r.HyDE.GeneratorID != "ollama/tiny" || r.HyDE.Text != "Oscar is my guinea pig." || r.Degraded || calls.Load() != 1 {
		t.Fatalf("hyde with an LLM: %+v (calls %d)", r, calls.Load())
	}
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"query":"which pet","hyde":{"hypothesis":"a guinea pig named Oscar","query":"which pet","generator_id":"agent","generator_version":"7"}}`), 0o600)
	r = decode[hydeJSON](t, ok(t, home, "recall", "--request", req, "--json"))
	if r.HyDE == nil || r.HyDE.GeneratorID != "agent" || r.HyDE.GeneratorVersion != "7" || calls.Load() != 1 {
		t.Fatalf("supplied hypothesis: %+v", r)
	}
	llm.Close()
	// A new query: the one above is answered from the result cache, LLM or not.
	r = decode[hydeJSON](t, ok(t, home, "recall", "which pet do I own", "--hyde", "--json"))
	if !r.Degraded || !strings.Contains(r.DegradedReason, "cannot reach the language model") || len(r.Hits) == 0 {
		t.Fatalf("hyde with the LLM down: %+v", r)
	}
}
