package codemem

import (
	"path"
	"sort"
	"strings"
)

// graph resolves the entries' imports: edges between units of the
// repository (a Go package directory, any other file), and the external
// dependencies each unit uses.
type graph struct {
	files   map[string]bool   // every path
	goDirs  map[string]bool   // directories holding Go files
	goMods  [][2]string       // (directory, module path), longest module first
	cargo   map[string]string // directory of a Cargo.toml → its src directory
	edges   map[[2]string]bool
	deps    map[string]int // external dependency → units using it
	inbound map[string]int // unit → units importing it
}

// unit is the graph node a file belongs to.
func unit(e *Entry) string {
	if e.Lang == "go" {
		return path.Dir(e.Path)
	}
	return e.Path
}

func buildGraph(entries []Entry) *graph {
	g := &graph{files: map[string]bool{}, goDirs: map[string]bool{}, cargo: map[string]string{},
		edges: map[[2]string]bool{}, deps: map[string]int{}, inbound: map[string]int{}}
	for i := range entries {
		e := &entries[i]
		g.files[e.Path] = true
		switch e.Lang {
		case "go":
			g.goDirs[path.Dir(e.Path)] = true
		case "gomod":
			for _, m := range e.Marks {
				if mod, ok := strings.CutPrefix(m, "module="); ok {
					g.goMods = append(g.goMods, [2]string{path.Dir(e.Path), mod})
				}
			}
		case "cargo":
			g.cargo[path.Dir(e.Path)] = path.Join(path.Dir(e.Path), "src")
		}
	}
	sort.Slice(g.goMods, func(i, j int) bool { return len(g.goMods[i][1]) > len(g.goMods[j][1]) })
	used := map[[2]string]bool{} // (unit, dependency) counted once
	for i := range entries {
		e := &entries[i]
		from := unit(e)
		for _, imp := range e.Imports {
			to, dep := g.resolve(e, imp)
			switch {
			case to != "" && to != from:
				g.edges[[2]string{from, to}] = true
			case dep != "" && !used[[2]string{from, dep}]:
				used[[2]string{from, dep}] = true
				g.deps[dep]++
			}
		}
	}
	for ed := range g.edges {
		g.inbound[ed[1]]++
	}
	return g
}

// resolve maps one import of e to a unit of the repository, or to an
// external dependency, or to neither (a standard library).
func (g *graph) resolve(e *Entry, imp string) (to, dep string) {
	switch e.Lang {
	case "go":
		return g.resolveGo(imp)
	case "python":
		return g.resolvePython(e.Path, imp)
	case "javascript", "typescript":
		return g.resolveJS(e.Path, imp)
	case "rust":
		return g.resolveRust(e.Path, imp)
	}
	return "", ""
}

func (g *graph) resolveGo(imp string) (string, string) {
	for _, m := range g.goMods {
		if rest, ok := strings.CutPrefix(imp, m[1]); ok && (rest == "" || rest[0] == '/') {
			if dir := path.Join(m[0], strings.TrimPrefix(rest, "/")); g.goDirs[dir] {
				return dir, ""
			}
			return "", ""
		}
	}
	segs := strings.Split(imp, "/")
	if !strings.Contains(segs[0], ".") {
		return "", "" // the standard library
	}
	return "", strings.Join(segs[:min(3, len(segs))], "/")
}

func (g *graph) resolvePython(from, imp string) (string, string) {
	mod, names, _ := strings.Cut(imp, ":")
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	var bases []string
	if dots > 0 {
		base := path.Dir(from)
		for range dots - 1 {
			base = path.Dir(base)
		}
		bases = []string{base}
	} else {
		bases = []string{".", "src", "lib", path.Dir(from)}
	}
	rel := strings.ReplaceAll(mod[dots:], ".", "/")
	for _, b := range bases {
		dir := path.Join(b, rel)
		if names != "" {
			for _, n := range strings.Split(names, ",") {
				if p := g.pyModule(path.Join(dir, n)); p != "" {
					return p, ""
				}
			}
		}
		if p := g.pyModule(dir); p != "" && rel != "" {
			return p, ""
		}
	}
	top, _, _ := strings.Cut(mod, ".")
	if dots > 0 || top == "" || pyStdlib[top] {
		return "", ""
	}
	return "", top
}

func (g *graph) pyModule(p string) string {
	for _, c := range []string{p + ".py", p + "/__init__.py"} {
		if g.files[c] {
			return c
		}
	}
	return ""
}

var jsExts = []string{"", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json",
	"/index.ts", "/index.tsx", "/index.js", "/index.jsx", "/index.mjs", "/index.cjs"}

func (g *graph) resolveJS(from, imp string) (string, string) {
	if strings.HasPrefix(imp, ".") || strings.HasPrefix(imp, "/") {
		p := path.Join(path.Dir(from), imp)
		if strings.HasPrefix(imp, "/") {
			p = strings.TrimPrefix(path.Clean(imp), "/")
		}
		stem := strings.TrimSuffix(strings.TrimSuffix(p, ".js"), ".mjs") // TypeScript imports name the emitted .js
		for _, base := range []string{p, stem} {
			for _, ext := range jsExts {
				if g.files[base+ext] {
					return base + ext, ""
				}
			}
		}
		return "", ""
	}
	if strings.HasPrefix(imp, "node:") || nodeBuiltins[imp] {
		return "", ""
	}
	segs := strings.Split(imp, "/")
	if strings.HasPrefix(imp, "@") && len(segs) > 1 {
		return "", segs[0] + "/" + segs[1]
	}
	return "", segs[0]
}

func (g *graph) resolveRust(from, imp string) (string, string) {
	dir := path.Dir(from)
	if name, ok := strings.CutPrefix(imp, "mod:"); ok {
		if b := path.Base(from); b != "main.rs" && b != "lib.rs" && b != "mod.rs" {
			dir = path.Join(dir, strings.TrimSuffix(b, ".rs"))
		}
		return g.rustModule(dir, []string{name}), ""
	}
	if name, ok := strings.CutPrefix(imp, "extern:"); ok {
		return "", name
	}
	segs := strings.Split(imp, "::")
	switch segs[0] {
	case "crate":
		return g.rustModule(g.crateSrc(from), segs[1:]), ""
	case "self":
		return g.rustModule(dir, segs[1:]), ""
	case "super":
		return g.rustModule(path.Dir(dir), segs[1:]), ""
	case "std", "core", "alloc":
		return "", ""
	}
	return "", segs[0]
}

// crateSrc is the src directory of the crate holding file p.
func (g *graph) crateSrc(p string) string {
	for d := path.Dir(p); ; d = path.Dir(d) {
		if src, ok := g.cargo[d]; ok {
			return src
		}
		if d == "." || d == "/" {
			return "src"
		}
	}
}

// rustModule finds the longest prefix of segs that names a module file
// under dir.
func (g *graph) rustModule(dir string, segs []string) string {
	for n := len(segs); n > 0; n-- {
		p := path.Join(append([]string{dir}, segs[:n]...)...)
		for _, c := range []string{p + ".rs", p + "/mod.rs"} {
			if g.files[c] {
				return c
			}
		}
	}
	return ""
}

var pyStdlib = set("os", "sys", "re", "json", "typing", "collections", "itertools", "functools", "pathlib",
	"subprocess", "logging", "time", "datetime", "math", "random", "io", "abc", "enum", "dataclasses",
	"unittest", "argparse", "shutil", "tempfile", "threading", "asyncio", "copy", "string", "struct",
	"hashlib", "base64", "contextlib", "inspect", "warnings", "textwrap", "traceback", "types", "weakref",
	"urllib", "http", "socket", "email", "csv", "glob", "pickle", "operator", "platform", "signal",
	"__future__", "importlib", "codecs", "uuid", "decimal", "fractions", "statistics", "queue", "zlib")

var nodeBuiltins = set("fs", "path", "os", "http", "https", "url", "util", "events", "stream", "crypto",
	"child_process", "assert", "buffer", "net", "tls", "zlib", "readline", "module", "process", "vm",
	"worker_threads", "querystring", "dns", "cluster", "tty", "v8", "perf_hooks", "string_decoder", "timers",
	"fs/promises", "async_hooks", "constants", "punycode", "inspector", "dgram", "http2", "domain")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
