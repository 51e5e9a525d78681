package config

import (
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/codemem"
)

// CodeService is code memory as the servers offer it: artifacts in the
// user's cache directory, roots limited to code.roots (each absolute, or
// starting with ~/).
func (c *Config) CodeService() (*codemem.Service, error) {
	roots := make([]string, 0, len(c.File.Code.Roots))
	for _, r := range c.File.Code.Roots {
		if rest, ok := strings.CutPrefix(r, "~/"); ok && c.getenv("HOME") != "" {
			r = filepath.Join(c.getenv("HOME"), rest)
		}
		if !filepath.IsAbs(r) {
			return nil, mneme.Invalid("%s: code.roots entry %q is not an absolute path", FileName, mneme.Clip(r))
		}
		roots = append(roots, r)
	}
	return codemem.New(codemem.Options{CacheDir: codemem.CacheDir(c.getenv), Restrict: true, Roots: roots}), nil
}
