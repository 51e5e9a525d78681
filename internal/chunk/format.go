package chunk

import (
	"path/filepath"
	"strings"
)

// FormatOf picks a format from a file name: Markdown for .md, .markdown and
// .mdx, Code for well-known source, markup and config extensions and for
// Makefile and Dockerfile, Text for everything else.
func FormatOf(name string) Format {
	base := strings.ToLower(filepath.Base(name))
	switch base {
	case "makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "rakefile", "gemfile":
		return Code
	}
	if strings.HasPrefix(base, "dockerfile.") || strings.HasSuffix(base, ".dockerfile") {
		return Code
	}
	switch filepath.Ext(base) {
	case ".md", ".markdown", ".mdx":
		return Markdown
	case ".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java",
		".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".rs", ".rb",
		".php", ".cs", ".kt", ".kts", ".swift", ".scala", ".sh", ".bash", ".zsh",
		".sql", ".lua", ".pl", ".pm", ".r", ".m", ".mm", ".proto", ".yaml", ".yml",
		".toml", ".json", ".html", ".htm", ".xml", ".css", ".scss", ".sass", ".less",
		".vue", ".svelte", ".dart", ".zig", ".ex", ".exs", ".erl", ".hs", ".ml",
		".clj", ".jl", ".tf", ".gradle", ".groovy", ".graphql", ".ps1", ".mk":
		return Code
	}
	return Text
}
