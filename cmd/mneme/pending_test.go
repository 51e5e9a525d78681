package main_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/benchdata"
)

// provider is a local embedding server speaking Ollama's and OpenAI's
// APIs (8 dimensions), in the mode a test sets: "ok" answers, "down"
// answers 503, "hang" holds each request until its client gives up.
type provider struct {
	*httptest.Server
	mode  atomic.Value
	calls atomic.Int64
}

func newProvider(t testing.TB, mode string) *provider {
	p := &provider{}
	p.mode.Store(mode)
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	p.calls.Add(1)
	switch p.mode.Load() {
	case "down":
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
		return
	case "garbage":
		fmt.Fprint(w, "<html>upstream error</html>")
		return
	case "nan":
		fmt.Fprint(w, `{"embeddings":[[NaN,1,1,1,1,1,1,1]],"data":[{"index":0,"embedding":[NaN,1,1,1,1,1,1,1]}]}`)
		return
	case "short":
		fmt.Fprint(w, `{"embeddings":[],"data":[]}`)
		return
	}
	var req struct{ Input []string }
	json.NewDecoder(r.Body).Decode(&req) // read whole: the server then sees the client leave
	if p.mode.Load() == "hang" {
		<-r.Context().Done()
		return
	}
	vecs := make([][]float32, len(req.Input))
	for i, text := range req.Input {
		h := fnv.New64a()
		h.Write([]byte(text))
		for j, s := 0, h.Sum64(); j < 8; j, s = j+1, s>>8 {
			vecs[i] = append(vecs[i], float32(s&0xff)+1)
		}
	}
	if r.URL.Path == "/api/embed" {
		json.NewEncoder(w).Encode(map[string]any{"embeddings": vecs})
		return
	}
	data := make([]map[string]any, len(vecs))
	for i, v := range vecs {
		data[i] = map[string]any{"index": i, "embedding": v}
	}
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}

// refusedURL is the URL of a port nothing listens on.
func refusedURL(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return "http://" + ln.Addr().String()
}

// useProvider configures home's embedder: provider (ollama or openai) at url.
func useProvider(t testing.TB, home, provider, url string) {
	t.Helper()
	os.MkdirAll(home, 0o700)
	cfg := fmt.Sprintf(`{"embedder":{"provider":%q,"url":%q,"model":"fake","dim":8}}`, provider, url)
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

type statsJSON struct {
	Total             int
	PendingEmbeddings int                     `json:"pending_embeddings"`
	EmbedderError     *struct{ Error string } `json:"embedder_error"`
}

// TestPendingWhenProviderDown: with the embedding provider unreachable,
// remember, ingest and import store their records pending embedding and
// say so (the second remember does not even try the provider); a write
// that requires embedding fails as before; stats and doctor show the
// pending count and the last failure; lexical recall finds the records at
// once, hybrid recall says it is degraded; once the provider answers,
// `mneme sync` embeds them and hybrid recall is whole again.
func TestPendingWhenProviderDown(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	for _, kind := range []string{"ollama", "openai"} {
		t.Run(kind, func(t *testing.T) {
			home, url := t.TempDir(), refusedURL(t)
			useProvider(t, home, kind, url)
			w := decode[writeJSON](t, ok(t, home, "remember", "the release train leaves on Tuesdays", "--json"))
			if w.Inserted != 1 || w.PendingEmbeddings != 1 || !strings.Contains(w.PendingReason, url) || !strings.Contains(w.PendingReason, "connection refused") {
				t.Fatalf("remember while down: %+v", w)
			}
			t0 := time.Now()
			r := mneme(t, home, "", "remember", "the staging database runs Postgres 17")
			if took := time.Since(t0); r.code != 0 || !strings.HasPrefix(r.stdout, "remembered ") || took > time.Second ||
				!strings.Contains(r.stderr, "note: 1 memory stored without a vector, pending embedding") || !strings.Contains(r.stderr, "mneme sync") {
				t.Fatalf("second remember while down (%v): %+v", took, r)
			}
			r = mneme(t, home, "", "remember", "must be embedded", "--require-embedding", "--json")
			if r.code != 1 || !strings.Contains(r.stderr, "EUNAVAILABLE") || !strings.Contains(r.stderr, url) {
				t.Fatalf("remember --require-embedding while down: %+v", r)
			}
			docs := filepath.Join(t.TempDir(), "docs")
			os.MkdirAll(docs, 0o700)
			os.WriteFile(filepath.Join(docs, "train.md"), []byte("# Train\n\nThe train is late on Mondays.\n"), 0o600)
			if w := decode[writeJSON](t, ok(t, home, "ingest", docs, "--json")); w.PendingEmbeddings != 1 {
				t.Fatalf("ingest while down: %+v", w)
			}
			backup := filepath.Join(t.TempDir(), "backup.jsonl")
			os.WriteFile(backup, []byte(`{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","text":"an imported memory","project":"default"}`+"\n"), 0o600)
			if w := decode[writeJSON](t, ok(t, home, "import", backup, "--json")); w.PendingEmbeddings != 1 {
				t.Fatalf("import while down: %+v", w)
			}
			st := decode[statsJSON](t, ok(t, home, "stats", "--json"))
			if st.Total != 4 || st.PendingEmbeddings != 4 || st.EmbedderError == nil || !strings.Contains(st.EmbedderError.Error, url) {
				t.Fatalf("stats while down: %+v", st)
			}
			if text := ok(t, home, "stats"); !strings.Contains(text, "4 memories wait for a vector (pending embedding); the embedder's last failure") {
				t.Fatalf("stats text: %s", text)
			}
			if res := decode[recallJSON](t, ok(t, home, "recall", "release train", "--mode", "lexical", "--json")); len(res.Hits) == 0 {
				t.Fatalf("lexical recall found no pending memory")
			}
			if r := mneme(t, home, "", "recall", "release train"); r.code != 0 || !strings.Contains(r.stderr, "recalled by words alone") {
				t.Fatalf("hybrid recall while down: %+v", r)
			}
			r = mneme(t, home, "", "doctor", "--json")
			if fine, detail, fix := decode[doctorJSON](t, r.stdout).check("vectors"); r.code != 1 || fine || fix != "mneme sync" || !strings.Contains(detail, "4 memories wait") {
				t.Fatalf("doctor while down: %+v", r)
			}
			useProvider(t, home, kind, newProvider(t, "ok").URL)
			s := decode[struct{ Embedded, Pending int }](t, ok(t, home, "sync", "--json"))
			if s.Embedded != 4 || s.Pending != 0 {
				t.Fatalf("sync: %+v", s)
			}
			if st := decode[statsJSON](t, ok(t, home, "stats", "--json")); st.PendingEmbeddings != 0 || st.EmbedderError != nil {
				t.Fatalf("stats after sync: %+v", st)
			}
			if r := mneme(t, home, "", "recall", "release train"); r.code != 0 || r.stderr != "" {
				t.Fatalf("hybrid recall after sync: %+v", r)
			}
		})
	}
}

// TestPendingWhenProviderAnswersGarbage: a provider that answers what is
// not a vector (not JSON, NaN, too few vectors) fails as a provider that
// is down does: the write stores its record pending (exit 0) and says
// why, instead of refusing it as if the input were wrong.
func TestPendingWhenProviderAnswersGarbage(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	for _, mode := range []string{"garbage", "nan", "short"} {
		t.Run(mode, func(t *testing.T) {
			home, p := t.TempDir(), newProvider(t, mode)
			useProvider(t, home, "ollama", p.URL)
			r := mneme(t, home, "", "remember", "the release train leaves on Tuesdays", "--json")
			if r.code != 0 {
				t.Fatalf("remember with a provider answering %s: exit %d, %s", mode, r.code, r.stderr)
			}
			if w := decode[writeJSON](t, r.stdout); w.Inserted != 1 || w.PendingEmbeddings != 1 || !strings.Contains(w.PendingReason, p.URL) && !strings.Contains(w.PendingReason, "ollama/fake") {
				t.Fatalf("remember with a provider answering %s: %+v", mode, w)
			}
			p.mode.Store("ok")
			if s := decode[struct{ Embedded, Pending int }](t, ok(t, home, "sync", "--json")); s.Embedded != 1 || s.Pending != 0 {
				t.Fatalf("sync once the provider answers: %+v", s)
			}
		})
	}
}

// TestPendingWhenProviderHangs: a provider that accepts and never answers
// holds a write no longer than the write's wait; the writes after it skip
// the provider (marked down) and return at once.
func TestPendingWhenProviderHangs(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	p := newProvider(t, "hang")
	home := t.TempDir()
	useProvider(t, home, "openai", p.URL)
	t0 := time.Now()
	w := decode[writeJSON](t, ok(t, home, "remember", "written while the provider hangs", "--json"))
	if took := time.Since(t0); w.PendingEmbeddings != 1 || !strings.Contains(w.PendingReason, "did not answer within 2.1s") || took > 10*time.Second {
		t.Fatalf("first remember (%v): %+v", took, w)
	}
	t0 = time.Now()
	w = decode[writeJSON](t, ok(t, home, "remember", "written after it was marked down", "--json"))
	if took := time.Since(t0); w.PendingEmbeddings != 1 || took > time.Second || p.calls.Load() != 1 {
		t.Fatalf("second remember (%v, %d calls): %+v", took, p.calls.Load(), w)
	}
	p.mode.Store("ok")
	if s := decode[struct{ Embedded, Pending int }](t, ok(t, home, "sync", "--json")); s.Embedded != 2 || s.Pending != 0 {
		t.Fatalf("sync: %+v", s)
	}
}

// TestServeEmbedsPending: `mneme serve` embeds in the background what its
// writes left pending, once the provider answers again and its backoff
// ends; a write that requires embedding fails meanwhile.
func TestServeEmbedsPending(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	p := newProvider(t, "down")
	home := t.TempDir()
	useProvider(t, home, "ollama", p.URL)
	s := serve(t, home)
	var w writeJSON
	if code := httpJSON(t, "POST", s.url+"/v1/memories", `{"text":"the release train leaves on Tuesdays"}`, &w); code != 201 || w.PendingEmbeddings != 1 || !strings.Contains(w.PendingReason, "HTTP 503") {
		t.Fatalf("remember while down: %d %+v", code, w)
	}
	var e struct{ Error struct{ Code string } }
	if code := httpJSON(t, "POST", s.url+"/v1/memories", `{"text":"must be embedded","require_embedding":true}`, &e); code != 503 || e.Error.Code != "EUNAVAILABLE" {
		t.Fatalf("require_embedding while down: %d %+v", code, e)
	}
	var st statsJSON
	if httpJSON(t, "GET", s.url+"/v1/stats", "", &st); st.PendingEmbeddings != 1 || st.EmbedderError == nil {
		t.Fatalf("stats while down: %+v", st)
	}
	p.mode.Store("ok")
	for deadline := time.Now().Add(30 * time.Second); st.PendingEmbeddings != 0 || st.EmbedderError != nil; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not embed the pending memory: %+v\n%s", st, s.log)
		}
		st = statsJSON{}
		httpJSON(t, "GET", s.url+"/v1/stats", "", &st)
	}
}

// TestPendingParity: with the provider unreachable, the CLI, `mneme serve`
// and `mneme mcp` store a memory pending alike, refuse one that requires
// embedding alike, and count it alike.
func TestPendingParity(t *testing.T) {
	t.Setenv("MNEME_EMBEDDER", "")
	url := refusedURL(t)
	home := func() string {
		h := t.TempDir()
		useProvider(t, h, "ollama", url)
		return h
	}
	surfaces := map[string]surface{"cli": &cliSurface{home: home()}, "http": &httpSurface{serve(t, home())}, "mcp": mcpSurfaceAt(t, home())}
	for i, st := range []struct {
		op   string
		in   args
		code string
	}{
		{"remember", args{"text": "written while the provider is down", "project": "ops"}, ""},
		{"remember", args{"text": "must be embedded", "project": "ops", "require_embedding": true}, "EUNAVAILABLE"},
		{"stats", args{}, ""},
	} {
		results := map[string]string{}
		for name, s := range surfaces {
			out, code := s.do(t, st.op, st.in)
			if code != st.code {
				t.Fatalf("step %d %s on %s: code %q, want %q (%v)", i, st.op, name, code, st.code, out)
			}
			results[name] = code
			if code == "" {
				results[name] = normalise(t, st.op, clone(out), nil)
			}
		}
		if results["cli"] != results["http"] || results["cli"] != results["mcp"] {
			t.Errorf("step %d %s differs:\ncli  %s\nhttp %s\nmcp  %s", i, st.op, results["cli"], results["http"], results["mcp"])
		}
		if st.code == "" && !strings.Contains(results["cli"], `"pending_embeddings":1`) {
			t.Errorf("step %d %s while down: %s", i, st.op, results["cli"])
		}
	}
}

// BenchmarkCLIRememberUnreachable: one `mneme remember` of a short record,
// process start included, while the embedding provider (Ollama's API)
// cannot be reached: its port refuses connections, or it accepts them and
// never answers (the warm-up write waits out the 2.1 s a write gives it,
// which marks it down for 5 s; "probes" counts the writes that asked it
// again when a backoff ended, each waiting 2.1 s); and, in the same run,
// with --embedder none.
func BenchmarkCLIRememberUnreachable(b *testing.B) {
	b.Setenv("MNEME_EMBEDDER", "")
	for _, c := range []string{"none", "refused", "hang"} {
		b.Run("provider="+c, func(b *testing.B) {
			home := b.TempDir()
			var flags []string
			var p *provider
			switch c {
			case "none":
				flags = []string{"--embedder", "none"}
			case "refused":
				useProvider(b, home, "ollama", refusedURL(b))
			case "hang":
				p = newProvider(b, "hang")
				useProvider(b, home, "ollama", p.URL)
			}
			run := func(text string) {
				cmd := exec.Command(bin, append([]string{"remember", text, "--home", home}, flags...)...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
			run("warm up")
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				run(fmt.Sprintf("short memory number %d about the build", i))
				lat = append(lat, time.Since(t0))
			}
			benchdata.ReportPercentiles(b, lat)
			if p != nil { // the writes that asked it again, its backoff over, and waited
				b.ReportMetric(float64(p.calls.Load()-1), "probes")
			}
		})
	}
}
