package importers

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/hook"
)

// Bounds of a folder search for memory files.
const (
	maxMemoryFiles = 1000
	maxMemoryDepth = 16
)

// memoryNames are the files the hosts read as memory or instructions.
var memoryNames = []string{"MEMORY.md", "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md",
	".cursorrules", ".windsurfrules", ".clinerules", "copilot-instructions.md"}

// hiddenKept are the hidden folders that hold memory files; other hidden
// folders, and dependency folders, are not searched.
var (
	hiddenKept = []string{".cursor", ".claude", ".github", ".gemini", ".codex"}
	skipped    = []string{"node_modules", "vendor", "third_party"}
)

// isMemoryFile reports whether rel (slash-separated, relative to the
// folder) is a file the hosts read: a memory name, or a rule under
// .cursor/rules.
func isMemoryFile(rel string) bool {
	if slices.Contains(memoryNames, filepath.Base(rel)) {
		return true
	}
	dir := "/" + filepath.ToSlash(filepath.Dir(rel)) + "/"
	return strings.Contains(dir, "/.cursor/rules/") && (strings.HasSuffix(rel, ".mdc") || strings.HasSuffix(rel, ".md"))
}

// readMarkdownMemory reads one file (named relative to its repository's
// root) or searches a folder for memory files (named relative to it). A
// memory file that is a symbolic link pointing out of the folder is
// refused; one pointing inside it is read under its own name.
func readMarkdownMemory(p string) ([]File, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, mneme.Invalid("%s: %v", p, err)
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() {
			return nil, mneme.Invalid("%s: not a regular file (symbolic links are not followed): give the file itself", p)
		}
		data, err := readBounded(p, p)
		if err != nil {
			return nil, err
		}
		return []File{{Name: repoRelative(p), Data: data}}, nil
	}
	root, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, mneme.Invalid("%s: %v", p, err)
	}
	var files []File
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(p, q)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return enter(q, p, rel, d.Name())
		}
		if !isMemoryFile(rel) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return linkInside(q, rel, root)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if len(files) == maxMemoryFiles {
			return mneme.Invalid("%s: more than %d memory files: import a smaller folder", p, maxMemoryFiles)
		}
		data, err := readBounded(q, rel)
		files = append(files, File{Name: rel, Data: data})
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, mneme.Invalid("%s: no memory files in it (%s, .cursor/rules/*.mdc)", p, strings.Join(memoryNames, ", "))
	}
	return files, nil
}

// enter says whether the walk goes into folder q (named rel).
func enter(q, top, rel, name string) error {
	switch {
	case q == top:
		return nil
	case strings.Count(rel, "/") >= maxMemoryDepth,
		strings.HasPrefix(name, ".") && !slices.Contains(hiddenKept, name),
		slices.Contains(skipped, name):
		return filepath.SkipDir
	}
	return nil
}

// linkInside refuses a memory file that links out of the folder; one that
// links inside is skipped (the walk reads its target under its own name).
func linkInside(q, rel, root string) error {
	target, err := filepath.EvalSymlinks(q)
	if err != nil {
		return mneme.Invalid("%s: a symbolic link that does not resolve: %v", rel, errors.Unwrap(err))
	}
	if target != root && !strings.HasPrefix(target, root+string(filepath.Separator)) {
		return mneme.Invalid("%s: a symbolic link out of the folder: not followed; import the file it points to by its own path", rel)
	}
	return nil
}

// readBounded reads a file of at most MaxMemoryFileBytes (name is how
// errors call it).
func readBounded(p, name string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, mneme.Invalid("%s: %v", name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > MaxMemoryFileBytes {
		return nil, lineError(name, 0, "not a regular file of at most %s", mneme.FormatSize(MaxMemoryFileBytes))
	}
	data := make([]byte, st.Size())
	_, err = io.ReadFull(f, data)
	return data, err
}

// repoRelative names file p relative to its repository's root (as the
// hooks find it), else by its base name: an absolute path is never stored.
func repoRelative(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Base(p)
	}
	rel, err := filepath.Rel(hook.FindRepo(filepath.Dir(abs), "").Root, abs)
	if err != nil {
		return filepath.Base(abs)
	}
	return filepath.ToSlash(rel)
}
