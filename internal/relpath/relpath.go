// Package relpath is the path hygiene every stored path goes through: a
// path kept in memory is relative to its repository (or directory), never
// absolute, never outside it, so what is stored and shown names no user's
// home and no machine's layout.
package relpath

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Check refuses p unless it is a clean relative path inside its root:
// not absolute (/home/…, C:\…, \\server\…, ~), no .. segment, no NUL.
func Check(p string) error {
	switch {
	case p == "":
		return errors.New("empty path")
	case strings.ContainsRune(p, 0):
		return errors.New("path holds a NUL byte")
	case strings.HasPrefix(p, "~"):
		return errors.New("path starts with ~ (a home directory): give it relative to the repository")
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || drive.MatchString(p):
		return errors.New("absolute path: give it relative to the repository")
	case strings.Contains(p, "://"):
		return errors.New("a URI, not a path: give the path relative to the repository")
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return errors.New("path leaves the repository (..): give it relative to the repository, inside it")
		}
	}
	return nil
}

var drive = regexp.MustCompile(`^[A-Za-z]:`)

// homePath finds a path into a home directory or a Windows drive inside
// free text: /home/…, /Users/…, /root/…, ~/…, C:\…. A shell command or a
// tool's outcome that names one would store a user name.
var homePath = regexp.MustCompile(`(?:^|[\s"'=(:,\[{])(?:/home/|/Users/|/root/|~/|[A-Za-z]:\\)`)

// HasHomePath reports whether text names a path in a home directory or on
// a Windows drive.
func HasHomePath(text string) bool { return homePath.MatchString(text) }

// Under returns p relative to root (both as the OS writes them) in slash
// form, and false when p is not inside root.
func Under(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return "", false
	}
	return path.Clean(rel), true
}

// RepoRoot returns the nearest directory at or above dir holding .git,
// and false when there is none.
func RepoRoot(dir string) (string, bool) {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// Source is the path an ingested file (or directory) at abs is stored
// under: relative to its repository's root, else to the parent of the
// directory it was found in (base, the walk's root), so a stored source
// names no home directory and no machine's layout.
func Source(abs, base string) string {
	root, ok := RepoRoot(base)
	if !ok {
		root = filepath.Dir(base)
	}
	if rel, ok := Under(root, abs); ok {
		return rel
	}
	return filepath.Base(abs)
}

// Display is uri as shown to a reader: a stored absolute path (written
// before sources were stored relative, or given to remember --source) is
// cut to its file name, so no home directory is shown.
func Display(uri string) string {
	if Check(uri) == nil || strings.Contains(uri, "://") && !strings.HasPrefix(uri, "file://") {
		return uri
	}
	p := strings.TrimPrefix(uri, "file://")
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return ".../" + p
}
