package codemem

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"sort"
	"strings"
)

// analyse extracts a file's imports and entry-point markers with line
// patterns (no parser: fast, and wrong only on unusual layouts).
//
// Imports are as written: Go import paths; Python modules, "from" imports
// as "MODULE:NAME,NAME" with leading dots for relative ones; JavaScript and
// TypeScript specifiers; Rust paths of use ("crate::a::b", "serde::de"),
// "mod:NAME" and "extern:NAME".
//
// Marks: "main" (a Go main package's main, Python's __main__, a Rust main),
// "module=PATH" (go.mod), "name=N", "bin=NAME:PATH" and "main=PATH"
// (package.json, Cargo.toml), "cmd=…" and "entrypoint=…" (Dockerfile),
// "target=NAME" (Makefile).
func analyse(p, lang string, data []byte) (imports, marks []string) {
	switch lang {
	case "go":
		imports = goImports(data)
		if goMainRE.Match(data) && goFuncMainRE.Match(data) {
			marks = []string{"main"}
		}
	case "python":
		imports = pyImports(data)
		if pyMainRE.Match(data) || path.Base(p) == "__main__.py" {
			marks = []string{"main"}
		}
	case "javascript", "typescript":
		imports = submatches(jsImportRE, data, 0)
	case "rust":
		imports = rustImports(data)
		if rustMainRE.Match(data) && (path.Base(p) == "main.rs" || strings.Contains(p, "src/bin/")) {
			marks = []string{"main"}
		}
	case "gomod":
		if m := goModuleRE.FindSubmatch(data); m != nil {
			marks = []string{"module=" + string(m[1])}
		}
	case "npm":
		marks = npmMarks(data)
	case "cargo":
		marks = cargoMarks(data)
	case "docker":
		for _, m := range dockerRE.FindAllSubmatch(data, -1) {
			marks = append(marks, strings.ToLower(string(m[1]))+"="+clip(strings.TrimSpace(string(m[2])), 120))
		}
	case "make":
		for _, m := range makeTargetRE.FindAllSubmatch(data, 50) {
			marks = append(marks, "target="+string(m[1]))
		}
	}
	return dedupe(imports), marks
}

var (
	goMainRE       = regexp.MustCompile(`(?m)^package main\b`)
	goFuncMainRE   = regexp.MustCompile(`(?m)^func main\(\)`)
	goSingleRE     = regexp.MustCompile(`(?m)^import\s+(?:[\w.]+\s+)?"([^"]+)"`)
	goBlockRE      = regexp.MustCompile(`(?ms)^import\s*\((.*?)^\)`)
	goQuotedRE     = regexp.MustCompile(`"([^"]+)"`)
	goModuleRE     = regexp.MustCompile(`(?m)^module\s+"?([^\s"]+)`)
	pyImportRE     = regexp.MustCompile(`(?m)^[ \t]*import[ \t]+([\w., \t]+)`)
	pyFromRE       = regexp.MustCompile(`(?m)^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w, \t*]+)`)
	pyMainRE       = regexp.MustCompile(`(?m)^if\s+__name__\s*==\s*['"]__main__['"]`)
	jsImportRE     = regexp.MustCompile(`(?m)(?:^\s*import\s+(?:[\w*{}\s,$]+\s+from\s+)?|^\s*export\s+[\w*{}\s,$]*\s+from\s+|\brequire\s*\(\s*|\bimport\s*\(\s*)['"]([^'"\n]+)['"]`)
	rustUseRE      = regexp.MustCompile(`(?m)^\s*(?:pub(?:\([\w:]+\))?\s+)?use\s+([\w:]+)`)
	rustModRE      = regexp.MustCompile(`(?m)^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+(\w+)\s*;`)
	rustExternRE   = regexp.MustCompile(`(?m)^\s*extern\s+crate\s+(\w+)`)
	rustMainRE     = regexp.MustCompile(`(?m)^\s*(?:async\s+)?fn\s+main\s*\(`)
	dockerRE       = regexp.MustCompile(`(?mi)^\s*(CMD|ENTRYPOINT)\s+(.+)$`)
	makeTargetRE   = regexp.MustCompile(`(?m)^([A-Za-z0-9][\w.-]*)\s*:(?:[^=]|$)`)
	cargoSectionRE = regexp.MustCompile(`^\[\[?([\w.-]+)\]\]?`)
	cargoKeyRE     = regexp.MustCompile(`^(name|path)\s*=\s*"([^"]*)"`)
)

func goImports(data []byte) []string {
	out := submatches(goSingleRE, data, 0)
	for _, b := range goBlockRE.FindAllSubmatch(data, -1) {
		for _, line := range bytes.Split(b[1], []byte("\n")) {
			if line = bytes.TrimSpace(line); bytes.HasPrefix(line, []byte("//")) {
				continue
			}
			if m := goQuotedRE.FindSubmatch(line); m != nil {
				out = append(out, string(m[1]))
			}
		}
	}
	return out
}

func pyImports(data []byte) []string {
	var out []string
	for _, m := range pyImportRE.FindAllSubmatch(data, -1) {
		for _, part := range strings.Split(string(m[1]), ",") {
			if f := strings.Fields(part); len(f) > 0 { // "a.b as c"
				out = append(out, f[0])
			}
		}
	}
	for _, m := range pyFromRE.FindAllSubmatch(data, -1) {
		var names []string
		for _, part := range strings.Split(string(m[2]), ",") {
			if f := strings.Fields(part); len(f) > 0 && f[0] != "*" {
				names = append(names, f[0])
			}
		}
		out = append(out, string(m[1])+":"+strings.Join(names, ","))
	}
	return out
}

func rustImports(data []byte) []string {
	out := submatches(rustUseRE, data, 0)
	for i, s := range out {
		out[i] = strings.TrimSuffix(s, "::")
	}
	for _, m := range rustModRE.FindAllSubmatch(data, -1) {
		out = append(out, "mod:"+string(m[1]))
	}
	for _, m := range rustExternRE.FindAllSubmatch(data, -1) {
		out = append(out, "extern:"+string(m[1]))
	}
	return out
}

// npmMarks reads package.json's name, bin and main.
func npmMarks(data []byte) []string {
	var pkg struct {
		Name string          `json:"name"`
		Main string          `json:"main"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return nil
	}
	var marks []string
	if pkg.Name != "" {
		marks = append(marks, "name="+pkg.Name)
	}
	var one string
	var many map[string]string
	switch {
	case json.Unmarshal(pkg.Bin, &one) == nil && one != "":
		marks = append(marks, "bin="+path.Base(pkg.Name)+":"+one)
	case json.Unmarshal(pkg.Bin, &many) == nil:
		names := make([]string, 0, len(many))
		for n := range many {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			marks = append(marks, "bin="+n+":"+many[n])
		}
	}
	if pkg.Main != "" {
		marks = append(marks, "main="+pkg.Main)
	}
	return marks
}

// cargoMarks reads Cargo.toml's package name and [[bin]] targets.
func cargoMarks(data []byte) []string {
	var marks []string
	section, name, binPath := "", "", ""
	flush := func() {
		if section == "bin" && name != "" {
			marks = append(marks, "bin="+name+":"+binPath)
		}
		name, binPath = "", ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if m := cargoSectionRE.FindStringSubmatch(line); m != nil {
			flush()
			section = m[1]
			continue
		}
		m := cargoKeyRE.FindStringSubmatch(line)
		switch {
		case m == nil:
		case section == "package" && m[1] == "name":
			marks = append(marks, "name="+m[2])
		case section == "bin" && m[1] == "name":
			name = m[2]
		case section == "bin":
			binPath = m[2]
		}
	}
	flush()
	return marks
}

func submatches(re *regexp.Regexp, data []byte, limit int) []string {
	var out []string
	for _, m := range re.FindAllSubmatch(data, -1) {
		out = append(out, string(m[1]))
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}

// dedupe sorts and deduplicates, so entries are deterministic.
func dedupe(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
