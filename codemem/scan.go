package codemem

import (
	"crypto/sha256"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/mneme-ai/mneme/internal/walk"
)

// Entry is one file of a repository as the artifact keeps it.
type Entry struct {
	Path    string   // slash-separated, relative to the root
	Size    int64    // bytes
	MTime   int64    // modification time, Unix nanoseconds
	Hash    uint64   // xxh3 of the content
	SHA256  [32]byte // sha256 of the content, as the Engine keys a document: Index compares the two
	Lang    string   // from the name: go, python, javascript, …; "" when unknown
	Imports []string // import specifiers as written (see imports.go)
	Marks   []string // entry-point markers (see imports.go)
}

// Change is one file of a delta.
type Change struct {
	Path   string `json:"path"`
	Change string `json:"change"` // added, modified, removed
}

// Delta is what changed since the artifact was last written.
type Delta struct {
	Added    int      `json:"added"`
	Modified int      `json:"modified"`
	Removed  int      `json:"removed"`
	Files    []Change `json:"files"`
}

// Empty reports whether nothing changed.
func (d Delta) Empty() bool { return d.Added+d.Modified+d.Removed == 0 }

// Stats counts the work of one scan.
type Stats struct {
	FileCount       int `json:"file_count"`
	ReusedEntries   int `json:"reused_entries"`
	RehashedEntries int `json:"rehashed_entries"`
}

// scan walks root and returns its entries sorted by path, reusing the
// entries of prev whose size and modification time are unchanged (all of
// them are rehashed when rehash is set), with the delta against prev and
// notes on the ignore files the walk could not read.
// A nil prev is a cold build: every file is added, and the delta lists no
// files (it would be the whole listing).
func scan(root string, prev []Entry, rehash bool) ([]Entry, Delta, Stats, []string, error) {
	old := make(map[string]*Entry, len(prev))
	for i := range prev {
		old[prev[i].Path] = &prev[i]
	}
	known := func(rel string, size int64, mod time.Time) bool {
		p := old[rel]
		return p != nil && !rehash && p.Size == size && p.MTime == mod.UnixNano()
	}
	files, skips, err := walk.Files([]string{root}, walk.Options{MaxFileSize: maxFileSize, Known: known})
	if err != nil {
		return nil, Delta{}, Stats{}, nil, err
	}
	entries := make([]Entry, len(files))
	var todo []int
	var st Stats
	for i, f := range files {
		e := Entry{Path: f.Rel, Size: f.Size, MTime: f.ModTime.UnixNano()}
		if p := old[f.Rel]; p != nil && !rehash && p.Size == e.Size && p.MTime == e.MTime {
			entries[i] = *p
			st.ReusedEntries++
			continue
		}
		entries[i] = e
		todo = append(todo, i)
	}
	entries = hashAll(files, entries, todo)
	st.RehashedEntries = len(todo)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	st.FileCount = len(entries)
	return entries, diff(prev, entries, prev == nil), st, walk.IgnoreNotes(root, skips), nil
}

// maxFileSize bounds the files kept: larger ones are data, not code.
const maxFileSize = 2 << 20

// hashAll reads, hashes and analyses entries[i] for each i of todo, on
// every core, and returns entries without those it could not read.
func hashAll(files []walk.File, entries []Entry, todo []int) []Entry {
	failed := make([]bool, len(entries))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				data, fi, err := files[i].Read(maxFileSize)
				if err != nil {
					failed[i] = true // vanished since the walk, or no longer a regular file
					continue
				}
				e := &entries[i]
				e.Size, e.MTime = fi.Size(), fi.ModTime().UnixNano() // what was read, if it changed since the walk
				e.Hash, e.SHA256 = xxh3.Hash(data), sha256.Sum256(data)
				e.Lang = Language(e.Path)
				e.Imports, e.Marks = analyse(e.Path, e.Lang, data)
			}
		}()
	}
	for _, i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
	kept := entries[:0]
	for i, e := range entries {
		if !failed[i] {
			kept = append(kept, e)
		}
	}
	return kept
}

// diff compares two path-sorted entry lists.
func diff(prev, cur []Entry, cold bool) Delta {
	d := Delta{Files: []Change{}}
	i, j := 0, 0
	add := func(p, c string) {
		if !cold {
			d.Files = append(d.Files, Change{p, c})
		}
	}
	for i < len(prev) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(prev) && prev[i].Path < cur[j].Path):
			d.Removed++
			add(prev[i].Path, "removed")
			i++
		case i == len(prev) || cur[j].Path < prev[i].Path:
			d.Added++
			add(cur[j].Path, "added")
			j++
		default:
			if prev[i].Hash != cur[j].Hash {
				d.Modified++
				add(cur[j].Path, "modified")
			}
			i, j = i+1, j+1
		}
	}
	return d
}

// Language names a file's language from its name, or "".
func Language(p string) string {
	base := strings.ToLower(path.Base(p))
	switch {
	case base == "makefile" || base == "gnumakefile" || strings.HasSuffix(base, ".mk"):
		return "make"
	case base == "dockerfile" || base == "containerfile" || strings.HasPrefix(base, "dockerfile.") || strings.HasSuffix(base, ".dockerfile"):
		return "docker"
	case base == "go.mod":
		return "gomod"
	case base == "package.json":
		return "npm"
	case base == "cargo.toml":
		return "cargo"
	}
	return langs[filepath.Ext(base)]
}

var langs = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
	".rs": "rust", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
	".java": "java", ".kt": "kotlin", ".rb": "ruby", ".php": "php", ".cs": "csharp",
	".swift": "swift", ".sh": "shell", ".bash": "shell", ".sql": "sql", ".proto": "proto",
	".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
	".html": "html", ".css": "css", ".scss": "css", ".vue": "vue", ".svelte": "svelte",
}
