package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme"
)

// Repo is the repository an event happened in: its root (which never
// leaves the process), the project it maps to, and the hashed form the
// session record carries (never an absolute path).
type Repo struct {
	Root    string
	Project string
	Hash    string
}

// FindRepo walks up from dir to the directory holding .git; without one,
// dir itself is the root. The project is the root's base name as a
// project name (lower case, other characters as '-'), or override.
func FindRepo(dir, override string) Repo {
	root := filepath.Clean(dir)
	for d := root; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	sum := sha256.Sum256([]byte(root))
	r := Repo{Root: root, Project: override, Hash: "sha256:" + hex.EncodeToString(sum[:8])}
	if r.Project == "" {
		r.Project = ProjectName(filepath.Base(root))
	}
	return r
}

// ProjectName maps a directory name to a valid project name.
func ProjectName(base string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(base) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	p := strings.TrimLeft(b.String(), "._-")
	if len(p) > 64 {
		p = p[:64]
	}
	if mneme.ValidateProject(p) != nil {
		return mneme.DefaultProject
	}
	return p
}
