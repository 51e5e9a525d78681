package webui_test

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/webui"
)

func get(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	webui.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w
}

// TestServes: the page at /, its files under /ui/ with their types, every
// answer with the security headers; no directory listings.
func TestServes(t *testing.T) {
	ui := webui.AssetPrefix()
	for path, want := range map[string]string{"/": "text/html", ui + "app.js": "text/javascript", ui + "style.css": "text/css"} {
		w := get(t, path)
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), want) {
			t.Errorf("GET %s: %d %s", path, w.Code, w.Header().Get("Content-Type"))
		}
	}
	if page := get(t, "/").Body.String(); !strings.Contains(page, `src="`+ui+`app.js"`) || !strings.Contains(page, `href="`+ui+`style.css"`) {
		t.Errorf("the page does not name the versioned files:\n%s", page)
	}
	if cc := get(t, ui+"app.js").Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("versioned files are not cached for good: %q", cc)
	}
	for _, path := range []string{"/", "/ui/", ui, "/ui/app.js", "/ui/0123456789ab/app.js", ui + "nothing.js", ui + "index.html"} {
		w := get(t, path)
		h := w.Header()
		if h.Get("Content-Security-Policy") != webui.Policy || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: headers %v", path, h)
		}
		if path != "/" && w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, w.Code)
		}
	}
}

// TestSelfContained: no file loads anything from elsewhere (no CDN, no
// network at run time), no inline script or style (the CSP forbids them),
// no innerHTML (memory text is untrusted), and every module imported is
// shipped.
func TestSelfContained(t *testing.T) {
	dir := "static"
	imports := regexp.MustCompile(`from '\./([a-z]+\.js)'`)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		s := string(b)
		for _, bad := range []string{"http://", "https://", "//cdn", "innerHTML", "outerHTML", "insertAdjacentHTML", "eval(", "style=\"", "<script>"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s contains %q", path, bad)
			}
		}
		for _, m := range imports.FindAllStringSubmatch(s, -1) {
			if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
				t.Errorf("%s imports %s, which is not shipped", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The page preloads every module, so none waits for its importer.
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	mods, _ := filepath.Glob(filepath.Join(dir, "*.js"))
	for _, m := range mods {
		if name := filepath.Base(m); name != "app.js" && !strings.Contains(string(page), `<link rel="modulepreload" href="/ui/`+name+`">`) {
			t.Errorf("index.html does not preload %s", name)
		}
	}
}
