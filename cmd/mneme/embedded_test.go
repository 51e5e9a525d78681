package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

var embedded struct {
	once sync.Once
	bin  string
	err  string
}

// embeddedBin builds mneme with the model compiled in (-tags embedmodel),
// once. It needs embed/minilm/embedded/model.bin (`go generate
// ./embed/minilm`); without it the test skips, or fails when
// MNEME_TEST_EMBEDDED is set (CI).
func embeddedBin(tb testing.TB) string {
	tb.Helper()
	if _, err := os.Stat("../../embed/minilm/embedded/model.bin"); err != nil {
		if os.Getenv("MNEME_TEST_EMBEDDED") != "" {
			tb.Fatalf("MNEME_TEST_EMBEDDED is set but the model form is missing (%v): run go generate ./embed/minilm", err)
		}
		skips.Skip(tb, "go generate ./embed/minilm, after mneme model fetch (MNEME_TEST_EMBEDDED=1 then requires it)", "no embed/minilm/embedded/model.bin to build with -tags embedmodel")
	}
	embedded.once.Do(func() {
		embedded.bin = filepath.Join(filepath.Dir(bin), "mneme-embedded")
		build := exec.Command("go", "build", "-tags", "embedmodel", "-o", embedded.bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			embedded.err = err.Error() + "\n" + string(out)
		}
	})
	if embedded.err != "" {
		tb.Fatal("build -tags embedmodel: " + embedded.err)
	}
	return embedded.bin
}

// TestEmbeddedBinary: a binary built with the model needs nothing else: in
// an empty HOME, with no model directory, no npm or anything else on PATH
// and every proxied connection refused, it says the model is embedded,
// remembers and recalls by meaning, and writes nothing outside its home.
func TestEmbeddedBinary(t *testing.T) {
	mb := embeddedBin(t)
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + t.TempDir(), "http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9"}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(mb, args...)
		cmd.Env, cmd.Dir = env, home
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mneme %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run("--version"); !strings.Contains(out, "all-MiniLM-L6-v2 embedded") {
		t.Errorf("--version does not say the model is embedded:\n%s", out)
	}
	if out := run("version", "--json"); !strings.Contains(out, `"model_embedded":true`) {
		t.Errorf("version --json: %s", out)
	}
	run("remember", "We deploy on Tuesdays after the CAB review")
	run("remember", "Ada prefers small pull requests")
	out := run("recall", "when do we ship to production", "--json")
	if !strings.Contains(out, "We deploy on Tuesdays") {
		t.Fatalf("recall by meaning found nothing:\n%s", out)
	}
	if out := run("stats", "--json"); !strings.Contains(out, `"pending_embeddings":0`) {
		t.Errorf("the writes were left pending embedding:\n%s", out)
	}
	if out := run("doctor"); !strings.Contains(out, "compiled into this binary") {
		t.Errorf("doctor does not say where the model is:\n%s", out)
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(home, p); err == nil && !d.IsDir() && !strings.HasPrefix(rel, filepath.Join(".local", "share", "mneme")) {
			t.Errorf("wrote %s outside the data directory", rel)
		}
		return nil
	})
}

// BenchmarkRecallStartup: a cold `mneme recall` process (start, open, load
// the model, embed the query, search, print) with the model compiled in
// and from the model directory (through its load cache), on the same home.
func BenchmarkRecallStartup(b *testing.B) {
	mb := embeddedBin(b)
	home := b.TempDir()
	// No result cache: every recall loads the model and embeds its query.
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"cache": {"off": true}}`), 0o600)
	for _, text := range []string{"We deploy on Tuesdays", "Ada prefers small pull requests", "Staging is rebuilt every Sunday"} {
		cmd := exec.Command(bin, "remember", text)
		cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
	for _, c := range []struct{ name, bin string }{{"disk", bin}, {"embedded", mb}, {"disk", bin}, {"embedded", mb}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(c.bin, "recall", "when do we ship")
				cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}
