// Package walk finds the files to ingest under the paths given to
// "mneme ingest PATH…": text files only, honouring .gitignore and skipping
// the usual noise (dependency trees, build output, lock files, binaries).
package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// File is one file to ingest.
type File struct {
	Path    string // absolute, cleaned
	Root    string // the directory Rel is relative to: read the file with Read, which follows no link below it
	Rel     string // slash-separated path relative to the root it was found under (for a file given directly: its base name)
	Size    int64
	ModTime time.Time
}

// Options tunes Files.
type Options struct {
	MaxFileSize int64 // files larger than this are skipped (reason "too large"); 0 means 10 MiB
	// Known, if set, reports a file (by Rel, size and modification time)
	// already found to be text: it is listed without opening it to sniff
	// for binary content (code memory's rescan of an unchanged tree).
	Known func(rel string, size int64, mod time.Time) bool
}

// Skip is a file or directory that Files left out, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"` // "binary", "too large", "ignored", "noise directory", "hidden", "unreadable", "symlink"
	// IgnoreFile: an ignore file (.gitignore, .git/info/exclude) or git's
	// pointer to it (.git, commondir) that was not read (not a regular
	// file, or over MaxIgnoreFile bytes): its patterns were not applied.
	IgnoreFile bool `json:"ignore_file,omitempty"`
}

// Skip reasons, as documented on Skip.
const (
	reasonBinary     = "binary"
	reasonTooLarge   = "too large"
	reasonIgnored    = "ignored"
	reasonNoiseDir   = "noise directory"
	reasonUnreadable = "unreadable" // also used for devices, FIFOs and sockets, which must not be opened
	reasonSymlink    = "symlink"
	reasonHidden     = "hidden" // dotfiles and dot-directories: config, not memory
)

const (
	defaultMaxFileSize = 10 << 20
	sniffLen           = 8000 // what git sniffs for its own binary check
)

// noiseDirs are never worth ingesting: VCS data, dependencies, caches, build output.
var noiseDirs = set(".git", ".hg", ".svn", "node_modules", "vendor", ".venv", "venv",
	"__pycache__", ".mypy_cache", ".pytest_cache", ".tox", "dist", "build", "target",
	".next", ".cache", ".idea", ".vscode", "coverage", ".terraform", "bin", "obj")

// binaryExts are skipped by name alone, so large media is never opened.
var binaryExts = set(
	".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tif", ".tiff", ".psd", ".heic", ".avif",
	".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst", ".lz4",
	".ttf", ".otf", ".woff", ".woff2", ".eot",
	".mp3", ".mp4", ".wav", ".flac", ".ogg", ".m4a", ".aac", ".avi", ".mov", ".mkv", ".webm",
	".pdf", ".exe", ".so", ".dylib", ".dll", ".o", ".a", ".class", ".jar", ".pyc", ".wasm",
	".sqlite", ".db")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// noiseFile reports generated files that are text but carry no memory worth keeping.
func noiseFile(name string) bool {
	return name == "package-lock.json" || name == "go.sum" ||
		strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".min.js") || strings.HasSuffix(name, ".map")
}

// Files walks the given paths (files or directories) and returns the text files to ingest in a
// deterministic (lexical) order, plus what it skipped and why. A path that does not exist is an
// error naming it. Files given explicitly are included even if a .gitignore would ignore them
// (but binaries are still skipped).
//
// Each directory is its own root: its .gitignore files apply, and its
// .git/info/exclude if it is a git work tree; ignore files above it do not.
// Symlinks are never followed, even when given explicitly. A file reached via
// several paths is listed once, with the Rel of the first path that reached it.
func Files(paths []string, o Options) ([]File, []Skip, error) {
	w := &walker{max: o.MaxFileSize, known: o.Known, seen: map[string]bool{}, buf: make([]byte, sniffLen)}
	if w.max <= 0 {
		w.max = defaultMaxFileSize
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			if pe, ok := err.(*fs.PathError); ok {
				err = pe.Err // name the path as the user gave it, not our absolute form
			}
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			w.skip(abs, reasonSymlink)
		case fi.IsDir():
			w.root = abs
			w.dir(abs, "", w.rootStack(abs))
		case fi.Mode().IsRegular():
			w.root = filepath.Dir(abs)
			w.file(abs, fi.Name(), fi, true)
		default:
			w.skip(abs, reasonUnreadable)
		}
	}
	return w.result()
}

type walker struct {
	root  string // of the path being walked: the Root of its files
	max   int64
	known func(rel string, size int64, mod time.Time) bool
	files []File
	skips []Skip
	seen  map[string]bool // absolute paths already in files
	buf   []byte          // sniff buffer, reused
}

func (w *walker) skip(p, reason string) { w.skips = append(w.skips, Skip{Path: p, Reason: reason}) }

// skipIgnoreFile reports an ignore file not read because of err.
func (w *walker) skipIgnoreFile(p string, err error) {
	w.skips = append(w.skips, Skip{Path: p, Reason: skipReason(err), IgnoreFile: true})
}

// dir walks directory abs, whose path relative to the root is rel ("" for the root).
func (w *walker) dir(abs, rel string, stack ignoreStack) {
	ents, err := os.ReadDir(abs)
	if err != nil {
		w.skip(abs, reasonUnreadable) // ents holds whatever was read before the error
	}
	for _, e := range ents {
		if e.Name() != ".gitignore" {
			continue
		}
		b, _, err := ReadFile(w.root, path.Join(rel, e.Name()), MaxIgnoreFile)
		if err != nil {
			w.skipIgnoreFile(filepath.Join(abs, e.Name()), err)
			continue
		}
		// Cap capacity so siblings' appends never share a backing array.
		stack = append(stack[:len(stack):len(stack)], parseIgnore(rel, string(b)))
	}
	for _, e := range ents {
		name, t := e.Name(), e.Type()
		p, r := filepath.Join(abs, name), path.Join(rel, name)
		switch {
		case e.IsDir() && noiseDirs[name]:
			w.skip(p, reasonNoiseDir)
		case strings.HasPrefix(name, "."):
			w.skip(p, reasonHidden)
		case stack.ignored(r, e.IsDir()): // git treats a symlink as a file, never a directory
			w.skip(p, reasonIgnored)
		case t&fs.ModeSymlink != 0:
			w.skip(p, reasonSymlink)
		case e.IsDir():
			w.dir(p, r, stack)
		case !t.IsRegular():
			w.skip(p, reasonUnreadable)
		default:
			if fi, err := e.Info(); err != nil {
				w.skip(p, reasonUnreadable)
			} else {
				w.file(p, r, fi, false)
			}
		}
	}
}

// file applies the name, size and content checks to one regular file.
func (w *walker) file(abs, rel string, fi fs.FileInfo, explicit bool) {
	if w.seen[abs] {
		return
	}
	name := fi.Name()
	switch {
	case !explicit && noiseFile(name):
		w.skip(abs, reasonIgnored)
		return
	case binaryExts[strings.ToLower(filepath.Ext(name))]:
		w.skip(abs, reasonBinary)
		return
	case fi.Size() > w.max:
		w.skip(abs, reasonTooLarge)
		return
	case w.known != nil && w.known(rel, fi.Size(), fi.ModTime()):
		w.seen[abs] = true
		w.files = append(w.files, File{Path: abs, Root: w.root, Rel: rel, Size: fi.Size(), ModTime: fi.ModTime()})
		return
	}
	n, err := w.sniff(rel)
	if err != nil {
		w.skip(abs, skipReason(err))
		return
	}
	if IsBinary(w.buf[:n]) {
		w.skip(abs, reasonBinary)
		return
	}
	w.seen[abs] = true
	w.files = append(w.files, File{Path: abs, Root: w.root, Rel: rel, Size: fi.Size(), ModTime: fi.ModTime()})
}

// sniff reads the start of w.root/rel into w.buf, as ReadFile opens it.
func (w *walker) sniff(rel string) (int, error) {
	f, err := openBelow(w.root, strings.Split(rel, "/"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0, ErrNotRegular
	}
	n, err := io.ReadFull(f, w.buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return n, err
}

// result sorts both lists and drops skips of files another path included,
// and repeated skips of one path.
func (w *walker) result() ([]File, []Skip, error) {
	sort.SliceStable(w.files, func(i, j int) bool { return w.files[i].Path < w.files[j].Path })
	sort.SliceStable(w.skips, func(i, j int) bool { return w.skips[i].Path < w.skips[j].Path })
	skips := w.skips[:0]
	for i, s := range w.skips {
		if !w.seen[s.Path] && (i == 0 || w.skips[i-1].Path != s.Path) {
			skips = append(skips, s)
		}
	}
	return w.files, skips, nil
}

// rootStack starts the ignore stack of a root with its git info/exclude,
// if any (git's pointer files and the exclude are read as ignore files).
func (w *walker) rootStack(root string) ignoreStack {
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Lstat(gitDir)
	switch {
	case err != nil || fi.Mode()&fs.ModeSymlink != 0:
		return nil
	case fi.Mode().IsRegular(): // linked worktree or submodule: ".git" names the real git dir
		b, err := readIgnoreFile(gitDir, true)
		if err != nil {
			w.skipIgnoreFile(gitDir, err)
			return nil
		}
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return nil
		}
		if gitDir = strings.TrimSpace(d); !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
		common := filepath.Join(gitDir, "commondir")
		c, err := readIgnoreFile(common, false) // worktrees share the main exclude
		switch {
		case err == nil:
			if c := strings.TrimSpace(string(c)); filepath.IsAbs(c) {
				gitDir = c
			} else {
				gitDir = filepath.Join(gitDir, c)
			}
		case !errors.Is(err, fs.ErrNotExist):
			w.skipIgnoreFile(common, err)
			return nil
		}
	case !fi.IsDir():
		w.skipIgnoreFile(gitDir, ErrNotRegular)
		return nil
	}
	exclude := filepath.Join(gitDir, "info", "exclude")
	b, err := readIgnoreFile(exclude, false)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.skipIgnoreFile(exclude, err)
		}
		return nil
	}
	return ignoreStack{parseIgnore("", string(b))}
}

// IsBinary reports whether the first bytes look binary (NUL byte in the first 8000 bytes, or not valid UTF-8 where more than ~30% of the sniffed bytes are invalid / control characters other than \t \n \r \f).
func IsBinary(head []byte) bool {
	if len(head) > sniffLen {
		head = head[:sniffLen]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if utf8.Valid(head) {
		return false
	}
	// Invalid UTF-8 is often just Latin-1 text, or a rune cut off by the
	// sniff limit, so only a high share of junk makes it binary.
	bad := 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		switch {
		case r == utf8.RuneError && n == 1,
			r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f',
			r >= 0x7f && r <= 0x9f:
			bad += n
		}
		i += n
	}
	return bad*10 > len(head)*3
}
