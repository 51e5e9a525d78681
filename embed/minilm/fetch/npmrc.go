package fetch

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// SourceRegistry: the tarball came from the registry npm's configuration
// names, read without npm.
const SourceRegistry = "registry"

// npmRegistry is the registry npm would fetch pkg from, read from npm's
// own configuration without npm: for the package's scope (@scope:registry)
// and then for every package (registry), each looked up in the environment
// (npm_config_*, any case), the project's .npmrc (dir or a parent), then the
// user's ($NPM_CONFIG_USERCONFIG, else ~/.npmrc). where says which. ""
// when none is set: no registry is assumed.
func npmRegistry(getenv func(string) string, environ []string, dir, pkg string) (registry, where string) {
	keys := []string{"registry"}
	if scope, _, ok := strings.Cut(pkg, "/"); ok && strings.HasPrefix(scope, "@") {
		keys = []string{scope + ":registry", "registry"}
	}
	levels := []struct {
		where string
		conf  map[string]string
	}{{"the environment", envConfig(environ)}}
	if p := projectNPMRC(dir); p != "" {
		levels = append(levels, struct {
			where string
			conf  map[string]string
		}{p, readNPMRC(p, getenv)})
	}
	user := getenv("NPM_CONFIG_USERCONFIG")
	if user == "" {
		user = getenv("npm_config_userconfig")
	}
	if user == "" && getenv("HOME") != "" {
		user = filepath.Join(getenv("HOME"), ".npmrc")
	}
	if user != "" {
		levels = append(levels, struct {
			where string
			conf  map[string]string
		}{user, readNPMRC(user, getenv)})
	}
	for _, k := range keys {
		for _, l := range levels {
			if v := l.conf[k]; v != "" {
				return v, l.where
			}
		}
	}
	return "", ""
}

// envConfig is npm's configuration from the environment: npm_config_KEY,
// in any case.
func envConfig(environ []string) map[string]string {
	conf := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if len(k) > len("npm_config_") && strings.EqualFold(k[:len("npm_config_")], "npm_config_") {
			conf[strings.ToLower(k[len("npm_config_"):])] = v
		}
	}
	return conf
}

// projectNPMRC is the .npmrc of dir or its nearest parent that has one.
func projectNPMRC(dir string) string {
	for d := dir; d != ""; {
		p := filepath.Join(d, ".npmrc")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return ""
}

var envRef = regexp.MustCompile(`\$\{([^}]+)\}`)

// readNPMRC reads key = value lines (";" and "#" start comments, ${VAR}
// is expanded, quotes are taken off); a missing file is empty.
func readNPMRC(path string, getenv func(string) string) map[string]string {
	conf := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return conf
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		v = envRef.ReplaceAllStringFunc(v, func(m string) string { return getenv(m[2 : len(m)-1]) })
		conf[strings.TrimSpace(k)] = v
	}
	return conf
}

// tarballURL is where a registry serves pkg's tarball:
// REGISTRY/@scope/name/-/name-1.0.0.tgz.
func tarballURL(registry, pkg string) string {
	name, version := pkg, ""
	if i := strings.LastIndex(pkg, "@"); i > 0 {
		name, version = pkg[:i], pkg[i+1:]
	}
	base := name[strings.LastIndex(name, "/")+1:]
	return strings.TrimRight(registry, "/") + "/" + name + "/-/" + base + "-" + version + ".tgz"
}
