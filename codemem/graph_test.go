package codemem

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestImports: import extraction per language, as analyse records them.
func TestImports(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		imports   []string
		marks     []string
	}{
		{"cmd/x/main.go", "package main\n\nimport (\n\t\"fmt\"\n\tm \"example.com/m/lib\"\n\t// \"commented/out\"\n)\nimport _ \"embed\"\n\nfunc main() {}\n",
			[]string{"embed", "example.com/m/lib", "fmt"}, []string{"main"}},
		{"lib/lib.go", "package lib\n\nimport \"os\"\n", []string{"os"}, nil},
		{"app/cli.py", "import os, sys as system\nfrom . import util\nfrom ..core.models import (User, Group)\nfrom requests import get\n\nif __name__ == \"__main__\":\n    main()\n",
			[]string{"..core.models:User,Group", ".:util", "os", "requests:get", "sys"}, []string{"main"}},
		{"src/index.ts", "import fs from 'node:fs'\nimport { a,\n b } from \"./a\"\nimport type { T } from '@scope/pkg/sub'\nexport * from './b.js'\nconst c = require('lodash')\nconst d = await import('./lazy')\n",
			[]string{"./a", "./b.js", "./lazy", "@scope/pkg/sub", "lodash", "node:fs"}, nil},
		{"src/main.rs", "use std::io;\nuse crate::config::Settings;\npub use serde::{Deserialize};\nmod config;\nextern crate log;\n\nfn main() {}\n",
			[]string{"crate::config::Settings", "extern:log", "mod:config", "serde", "std::io"}, []string{"main"}},
		{"go.mod", "module example.com/m\n\ngo 1.22\n", nil, []string{"module=example.com/m"}},
		{"package.json", `{"name":"@s/tool","main":"lib/index.js","bin":{"tool":"bin/tool.js","t2":"bin/t2.js"}}`, nil,
			[]string{"name=@s/tool", "bin=t2:bin/t2.js", "bin=tool:bin/tool.js", "main=lib/index.js"}},
		{"Cargo.toml", "[package]\nname = \"demo\"\n\n[[bin]]\nname = \"cli\"\npath = \"src/cli.rs\"\n", nil, []string{"name=demo", "bin=cli:src/cli.rs"}},
		{"Dockerfile", "FROM alpine\nENTRYPOINT [\"/app\"]\nCMD --serve\n", nil, []string{"entrypoint=[\"/app\"]", "cmd=--serve"}},
		{"Makefile", "VAR := 1\nbuild: dep\n\tgo build\ntest:\n\tgo test\n.PHONY: build\n", nil, []string{"target=build", "target=test"}},
	} {
		imports, marks := analyse(tc.path, Language(tc.path), []byte(tc.src))
		if !slices.Equal(imports, tc.imports) || !slices.Equal(marks, tc.marks) {
			t.Errorf("%s:\nimports %q\nwant    %q\nmarks %q\nwant  %q", tc.path, imports, tc.imports, marks, tc.marks)
		}
	}
}

// entries analyses files as a scan would.
func entries(files map[string]string) []Entry {
	var out []Entry
	for p, src := range files {
		e := Entry{Path: p, Lang: Language(p), Size: int64(len(src))}
		e.Imports, e.Marks = analyse(p, e.Lang, []byte(src))
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	return out
}

func edges(g *graph) []string {
	var out []string
	for e := range g.edges {
		out = append(out, e[0]+" -> "+e[1])
	}
	slices.Sort(out)
	return out
}

// TestGraph: imports resolve to units of the repository per language, the
// rest to external dependencies (standard libraries left out).
func TestGraph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		edges []string
		deps  string
	}{
		{"go", map[string]string{"go.mod": "module example.com/m\n", "main.go": "package main\nimport (\n\t\"fmt\"\n\t\"example.com/m/internal/db\"\n\t\"github.com/a/b/v2/c\"\n)\nfunc main() {}\n",
			"internal/db/db.go": "package db\nimport \"example.com/m/internal/util\"\n", "internal/util/u.go": "package util\n"},
			[]string{". -> internal/db", "internal/db -> internal/util"}, "map[github.com/a/b:1]"},
		{"python", map[string]string{"pkg/__init__.py": "", "pkg/core.py": "from . import helpers\nimport numpy as np\n", "pkg/helpers.py": "import os\n",
			"pkg/sub/x.py": "from ..core import run\nfrom pkg import helpers\n", "app.py": "import pkg.core\nfrom pkg.sub import x\n"},
			[]string{"app.py -> pkg/core.py", "app.py -> pkg/sub/x.py", "pkg/core.py -> pkg/helpers.py", "pkg/sub/x.py -> pkg/core.py", "pkg/sub/x.py -> pkg/helpers.py"}, "map[numpy:1]"},
		{"javascript", map[string]string{"src/index.ts": "import { a } from './a.js'\nimport b from './b'\nimport x from '@s/p/deep'\nimport fs from 'fs'\n",
			"src/a.ts": "export const a = 1\n", "src/b/index.js": "const r = require('react')\n"},
			[]string{"src/index.ts -> src/a.ts", "src/index.ts -> src/b/index.js"}, "map[@s/p:1 react:1]"},
		{"rust", map[string]string{"Cargo.toml": "[package]\nname = \"d\"\n", "src/main.rs": "mod net;\nuse crate::util::fmt;\nuse serde::Serialize;\nuse std::fs;\nfn main() {}\n",
			"src/net/mod.rs": "mod tcp;\nuse super::util;\n", "src/net/tcp.rs": "use tokio::net;\n", "src/util.rs": ""},
			[]string{"src/main.rs -> src/net/mod.rs", "src/main.rs -> src/util.rs", "src/net/mod.rs -> src/net/tcp.rs", "src/net/mod.rs -> src/util.rs"}, "map[serde:1 tokio:1]"},
	} {
		g := buildGraph(entries(tc.files))
		if got := edges(g); !slices.Equal(got, tc.edges) || fmt.Sprint(g.deps) != tc.deps {
			t.Errorf("%s: edges %q\nwant %q\ndeps %v, want %s", tc.name, got, tc.edges, g.deps, tc.deps)
		}
	}
}

// TestSliceDeterministic: the same entries give the same bytes, with the
// entry points of every kind.
func TestSliceDeterministic(t *testing.T) {
	files := map[string]string{"go.mod": "module m\n", "cmd/a/main.go": "package main\nimport \"m/lib\"\nfunc main() {}\n", "lib/l.go": "package lib\n",
		"tool/__main__.py": "print(1)\n", "package.json": `{"name":"p","bin":"cli.js","main":"index.js"}`, "Dockerfile": "CMD [\"x\"]\n", "Makefile": "all:\n"}
	var first []byte
	for i := range 5 {
		es := entries(files)
		for j := range es {
			es[j].MTime = time.Unix(int64(j), 0).UnixNano()
		}
		b, _ := json.Marshal(buildSlice(t.TempDir(), es, Compact))
		if i == 0 {
			first = b
		} else if string(b) != string(first) {
			t.Fatalf("slices differ:\n%s\n%s", first, b)
		}
	}
	var s Slice
	json.Unmarshal(first, &s)
	var kinds []string
	for _, ep := range s.EntryPoints {
		kinds = append(kinds, ep.Kind+" "+ep.Path+" "+ep.Name)
	}
	want := []string{"docker-cmd Dockerfile [\"x\"]", "make-target Makefile all", "go-main cmd/a ", "npm-bin cli.js p", "npm-main index.js ", "python-main tool/__main__.py "}
	if !slices.Equal(kinds, want) {
		t.Fatalf("entry points %q, want %q", kinds, want)
	}
}
