package codemem

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/mneme-ai/mneme/internal/walk"
)

// Detail levels of a context slice.
const (
	Compact = "compact" // no prose: entry points, hot paths, top imports, the import graph
	Normal  = "normal"  // adds per-directory summaries and each entry point's symbols
	Verbose = "verbose" // every directory, more symbols, the whole graph
)

// Slice is the context an agent starts from. Its fields are in a fixed
// order and its lists sorted, so the same repository gives the same bytes.
type Slice struct {
	Detail      string       `json:"detail"`
	Languages   []Count      `json:"languages"`
	EntryPoints []EntryPoint `json:"entry_points"`
	HotPaths    HotPaths     `json:"hot_paths"`
	TopImports  []Count      `json:"top_imports"`
	Graph       Graph        `json:"graph"`
	Dirs        []Dir        `json:"dirs,omitempty"`
}

// EntryPoint is where a program starts: Kind is go-main, python-main,
// rust-main, npm-bin, npm-main, cargo-bin, docker-cmd, docker-entrypoint or
// make-target.
type EntryPoint struct {
	Kind    string   `json:"kind"`
	Path    string   `json:"path"`
	Name    string   `json:"name,omitempty"`
	Symbols []string `json:"symbols,omitempty"`
}

// HotPaths are the units most imported inside the repository and the
// files changed last.
type HotPaths struct {
	MostImported    []Count  `json:"most_imported"`
	RecentlyChanged []string `json:"recently_changed"`
}

// Count is a name and how often it occurs.
type Count struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// Graph is the import graph: nodes are Go package directories and other
// files; edges are [from, to] indexes into Nodes. Compact and normal keep
// the edges into the most imported nodes only (Truncated says how many
// were left out).
type Graph struct {
	Nodes     []string `json:"nodes"`
	Edges     [][2]int `json:"edges"`
	Truncated int      `json:"truncated,omitempty"`
}

// Dir summarises one directory's subtree.
type Dir struct {
	Path  string `json:"path"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
	Lang  string `json:"lang,omitempty"` // the most common language
}

// limits per detail level.
type limits struct{ hot, recent, imports, edges, dirDepth, symbols int }

var levels = map[string]limits{
	Compact: {hot: 10, recent: 10, imports: 15, edges: 150},
	Normal:  {hot: 15, recent: 15, imports: 25, edges: 400, dirDepth: 2, symbols: 30},
	Verbose: {hot: 30, recent: 30, imports: 100, edges: -1, dirDepth: -1, symbols: 200},
}

// CheckDetail validates a detail level; "" means compact.
func CheckDetail(d string) (string, error) {
	if d == "" {
		return Compact, nil
	}
	if _, ok := levels[d]; !ok {
		return "", invalid("detail %q is not known: use compact, normal or verbose", d)
	}
	return d, nil
}

// buildSlice makes the slice of the entries of the repository at root.
func buildSlice(root string, entries []Entry, detail string) *Slice {
	lim := levels[detail]
	g := buildGraph(entries)
	s := &Slice{Detail: detail, Languages: languages(entries), EntryPoints: entryPoints(entries, g),
		TopImports: top(g.deps, lim.imports)}
	s.HotPaths.MostImported = top(g.inbound, lim.hot)
	s.HotPaths.RecentlyChanged = recent(entries, lim.recent)
	s.Graph = g.compact(lim.edges)
	if detail != Compact {
		s.Dirs = dirs(entries, lim.dirDepth)
		for i := range s.EntryPoints {
			s.EntryPoints[i].Symbols = symbolsOf(root, entries, s.EntryPoints[i], lim.symbols)
		}
	}
	return s
}

// nonNil gives s's lists back the empty values gob drops, so a slice read
// from an artifact encodes as the one built (arrays, never null).
func (s *Slice) nonNil() *Slice {
	if s == nil {
		return nil
	}
	for _, l := range []*[]Count{&s.Languages, &s.TopImports, &s.HotPaths.MostImported} {
		if *l == nil {
			*l = []Count{}
		}
	}
	if s.EntryPoints == nil {
		s.EntryPoints = []EntryPoint{}
	}
	if s.HotPaths.RecentlyChanged == nil {
		s.HotPaths.RecentlyChanged = []string{}
	}
	if s.Graph.Nodes == nil {
		s.Graph.Nodes = []string{}
	}
	if s.Graph.Edges == nil {
		s.Graph.Edges = [][2]int{}
	}
	return s
}

func languages(entries []Entry) []Count {
	n := map[string]int{}
	for _, e := range entries {
		if e.Lang != "" {
			n[e.Lang]++
		}
	}
	return top(n, -1)
}

// top is the counts sorted by count, then name, at most k (-1: all).
func top(m map[string]int, k int) []Count {
	out := make([]Count, 0, len(m))
	for name, n := range m {
		out = append(out, Count{name, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Name < out[j].Name
	})
	if k >= 0 && len(out) > k {
		out = out[:k]
	}
	return out
}

func recent(entries []Entry, k int) []string {
	idx := make([]int, len(entries))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return entries[idx[a]].MTime > entries[idx[b]].MTime })
	out := []string{}
	for _, i := range idx[:min(k, len(idx))] {
		out = append(out, entries[i].Path)
	}
	return out
}

// compact keeps at most maxEdges edges (-1: all), those into the most
// imported nodes first, and the nodes they touch.
func (g *graph) compact(maxEdges int) Graph {
	edges := make([][2]string, 0, len(g.edges))
	for e := range g.edges {
		edges = append(edges, e)
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if g.inbound[a[1]] != g.inbound[b[1]] {
			return g.inbound[a[1]] > g.inbound[b[1]]
		}
		if a[1] != b[1] {
			return a[1] < b[1]
		}
		return a[0] < b[0]
	})
	out := Graph{Nodes: []string{}, Edges: [][2]int{}}
	if maxEdges >= 0 && len(edges) > maxEdges {
		out.Truncated = len(edges) - maxEdges
		edges = edges[:maxEdges]
	}
	names := map[string]bool{}
	for _, e := range edges {
		names[e[0]], names[e[1]] = true, true
	}
	for n := range names {
		out.Nodes = append(out.Nodes, n)
	}
	sort.Strings(out.Nodes)
	index := make(map[string]int, len(out.Nodes))
	for i, n := range out.Nodes {
		index[n] = i
	}
	for _, e := range edges {
		out.Edges = append(out.Edges, [2]int{index[e[0]], index[e[1]]})
	}
	sort.Slice(out.Edges, func(i, j int) bool {
		if out.Edges[i][0] != out.Edges[j][0] {
			return out.Edges[i][0] < out.Edges[j][0]
		}
		return out.Edges[i][1] < out.Edges[j][1]
	})
	return out
}

// entryPoints reads the entries' marks.
func entryPoints(entries []Entry, g *graph) []EntryPoint {
	out := []EntryPoint{}
	seen := map[[3]string]bool{}
	add := func(ep EntryPoint) {
		if k := [3]string{ep.Kind, ep.Path, ep.Name}; !seen[k] {
			seen[k] = true
			out = append(out, ep)
		}
	}
	for _, e := range entries {
		dir := path.Dir(e.Path)
		for _, m := range e.Marks {
			key, val, _ := strings.Cut(m, "=")
			switch {
			case m == "main" && e.Lang == "go":
				add(EntryPoint{Kind: "go-main", Path: dir})
			case m == "main":
				add(EntryPoint{Kind: e.Lang + "-main", Path: e.Path})
			case key == "bin":
				name, p, _ := strings.Cut(val, ":")
				if p == "" && e.Lang == "cargo" {
					p = "src/bin/" + name + ".rs"
					if !g.files[path.Join(dir, p)] {
						p = "src/main.rs"
					}
				}
				add(EntryPoint{Kind: e.Lang + "-bin", Path: path.Join(dir, p), Name: name})
			case key == "main" && e.Lang == "npm":
				add(EntryPoint{Kind: "npm-main", Path: path.Join(dir, val)})
			case key == "cmd" || key == "entrypoint":
				add(EntryPoint{Kind: "docker-" + key, Path: e.Path, Name: val})
			case key == "target":
				add(EntryPoint{Kind: "make-target", Path: e.Path, Name: val})
			}
		}
	}
	return out
}

// dirs summarises each directory's subtree down to depth (-1: all).
func dirs(entries []Entry, depth int) []Dir {
	type acc struct {
		Dir
		langs map[string]int
	}
	m := map[string]*acc{}
	for _, e := range entries {
		parts := strings.Split(path.Dir(e.Path), "/")
		for n := 1; n <= len(parts) && (depth < 0 || n <= depth); n++ {
			d := strings.Join(parts[:n], "/")
			if d == "." {
				continue
			}
			a := m[d]
			if a == nil {
				a = &acc{Dir: Dir{Path: d}, langs: map[string]int{}}
				m[d] = a
			}
			a.Files++
			a.Bytes += e.Size
			if e.Lang != "" {
				a.langs[e.Lang]++
			}
		}
	}
	out := make([]Dir, 0, len(m))
	for _, a := range m {
		if t := top(a.langs, 1); len(t) > 0 {
			a.Lang = t[0].Name
		}
		out = append(out, a.Dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

var symbolRE = map[string]*regexp.Regexp{
	"go":         regexp.MustCompile(`(?m)^(?:func(?:\s+\([^)]*\))?|type)\s+(\w+)`),
	"python":     regexp.MustCompile(`(?m)^(?:async\s+)?(?:def|class)\s+(\w+)`),
	"javascript": regexp.MustCompile(`(?m)^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+(\w+)`),
	"rust":       regexp.MustCompile(`(?m)^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:fn|struct|enum|trait|type|mod)\s+(\w+)`),
}

// symbolsOf reads the definitions of an entry point's source files (a Go
// main package: its files but tests).
func symbolsOf(root string, entries []Entry, ep EntryPoint, k int) []string {
	var files []string
	switch {
	case ep.Kind == "go-main":
		for _, e := range entries {
			if e.Lang == "go" && path.Dir(e.Path) == ep.Path && !strings.HasSuffix(e.Path, "_test.go") {
				files = append(files, e.Path)
			}
		}
	case strings.HasPrefix(ep.Kind, "docker-") || ep.Kind == "make-target":
		return nil
	default:
		files = []string{ep.Path}
	}
	var out []string
	for _, f := range files {
		lang := Language(f)
		if lang == "typescript" {
			lang = "javascript"
		}
		re := symbolRE[lang]
		if re == nil {
			continue
		}
		data, _, err := walk.ReadFile(root, f, maxFileSize)
		if err != nil {
			continue
		}
		out = append(out, submatches(re, data, k)...)
	}
	out = dedupe(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}
