package walk

import (
	"strings"
	"testing"
)

// excluded applies one root .gitignore the way git does, including the rule
// that nothing under an excluded directory can be re-included.
func excluded(s ignoreStack, rel string, isDir bool) bool {
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && s.ignored(rel[:i], true) {
			return true
		}
	}
	return s.ignored(rel, isDir)
}

func TestMatch(t *testing.T) {
	const dir, file = true, false
	tests := []struct {
		gitignore string
		path      string
		isDir     bool
		want      bool
	}{
		// Blank lines, comments and escapes.
		{"\n\n", "a", file, false},
		{"#foo", "#foo", file, false},
		{`\#foo`, "#foo", file, true},
		{`\!important`, "!important", file, true},
		{"!", "a", file, false},
		// Trailing spaces are trimmed unless escaped.
		{"foo   ", "foo", file, true},
		{`foo\ `, "foo ", file, true},
		{`foo\ `, "foo", file, false},
		{"foo\r", "foo", file, true},
		{"\ufeff*.bak", "x.bak", file, true},
		// No slash: matches the base name at any depth.
		{"hello.*", "hello.c", file, true},
		{"hello.*", "src/hello.java", file, true},
		{"hello.*", "hello", file, false},
		{"*.o", "a/b/c.o", file, true},
		// Trailing slash: directories only.
		{"foo/", "foo", dir, true},
		{"foo/", "a/foo", dir, true},
		{"foo/", "foo", file, false},
		{"frotz/", "a/frotz", dir, true},
		// A leading or middle slash anchors to the .gitignore's directory.
		{"/bar", "bar", file, true},
		{"/bar", "a/bar", file, false},
		{"doc/frotz/", "doc/frotz", dir, true},
		{"doc/frotz/", "a/doc/frotz", dir, false},
		{"doc/frotz", "doc/frotz", file, true},
		{"/doc/frotz", "doc/frotz", file, true},
		// '*' and '?' do not cross '/'.
		{"foo/*", "foo/test.json", file, true},
		{"foo/*", "foo/bar", dir, true},
		{"foo/*", "foo/bar/hello.c", file, true}, // via its excluded parent foo/bar
		{"foo/*.c", "foo/bar/hello.c", file, false},
		{"a?c", "abc", file, true},
		{"x/a?c", "x/a/c", file, false},
		{"a*", "a/b", file, true}, // parent a matches
		// "**".
		{"**/foo", "foo", file, true},
		{"**/foo", "a/b/foo", dir, true},
		{"**/foo/bar", "foo/bar", file, true},
		{"**/foo/bar", "x/foo/bar", file, true},
		{"**/foo/bar", "x/foo/baz", file, false},
		{"abc/**", "abc/x", file, true},
		{"abc/**", "abc/x/y", file, true},
		{"abc/**", "abc", dir, false},
		{"a/**/b", "a/b", file, true},
		{"a/**/b", "a/x/b", file, true},
		{"a/**/b", "a/x/y/b", file, true},
		{"a/**/b", "a/x/y/c", file, false},
		{"a/**/**/b", "a/b", file, true},
		{"**", "anything/at/all", file, true},
		{"a**b", "axxb", file, true}, // "**" inside a segment is a plain '*'
		{"a/x**y/b", "a/x/q/y/b", file, false},
		// Character classes.
		{"[a-c].txt", "b.txt", file, true},
		{"[a-c].txt", "d.txt", file, false},
		{"[!a-c].txt", "d.txt", file, true},
		{"[^a-c].txt", "a.txt", file, false},
		{"[]].txt", "].txt", file, true},
		{"[!]].txt", "].txt", file, false},
		{"[a-].txt", "-.txt", file, true},
		{"[x-a]", "x", file, true}, // as git: the low end also matches literally
		{"[x-a]", "b", file, false},
		{`[\]]x`, "]x", file, true},
		{"[[:digit:]]x", "7x", file, true},
		{"[[:digit:]]x", "ax", file, false},
		{"[[:upper:][:digit:]]x", "Qx", file, true},
		{"[[:bogus:]]x", "ax", file, false},
		{"[abc", "a", file, false}, // unterminated: never matches
		{`a\*`, "a*", file, true},
		{`a\*`, "ab", file, false},
		{`a\`, "a", file, false}, // dangling escape: never matches
		// Later patterns override earlier ones.
		{"*.html\n!foo.html", "foo.html", file, false},
		{"*.html\n!foo.html", "bar.html", file, true},
		{"!foo.html\n*.html", "foo.html", file, true},
		// Git's example: exclude everything except directory foo/bar.
		{"/*\n!/foo\n/foo/*\n!/foo/bar", "foo/bar/x", file, false},
		{"/*\n!/foo\n/foo/*\n!/foo/bar", "foo/baz", file, true},
		{"/*\n!/foo\n/foo/*\n!/foo/bar", "other", file, true},
		// A file cannot be re-included if a parent directory is excluded.
		{"build/\n!build/keep.txt", "build/keep.txt", file, true},
		{"build/*\n!build/keep.txt", "build/keep.txt", file, false},
	}
	for _, tt := range tests {
		s := ignoreStack{parseIgnore("", tt.gitignore)}
		if got := excluded(s, tt.path, tt.isDir); got != tt.want {
			t.Errorf("%q vs %q (dir=%v): got %v, want %v", tt.gitignore, tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestStackDepth(t *testing.T) {
	s := ignoreStack{
		parseIgnore("", "*.log\n/top.txt\n"),
		parseIgnore("sub", "!keep.log\n/local.txt\nnested/deep.txt\n"),
	}
	tests := []struct {
		path string
		want bool
	}{
		{"a.log", true},
		{"sub/a.log", true},
		{"sub/keep.log", false}, // the deeper file overrides
		{"keep.log", true},      // ...but only below its own directory
		{"top.txt", true},
		{"sub/top.txt", false},
		{"sub/local.txt", true},
		{"local.txt", false},
		{"sub/nested/deep.txt", true},
		{"sub/x/nested/deep.txt", false},
		{"subway/keep.log", true}, // "sub" is not a prefix of "subway"
	}
	for _, tt := range tests {
		if got := s.ignored(tt.path, false); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.path, got, tt.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"*.go", "a/b.go"}, {"a/**/b", "a/x/b"}, {"[!a-z]?", "Xy"}, {`\[x\]`, "[x]"},
		{"[[:alpha:]-]", "-"}, {"abc/**/", "abc/d"}, {"!/x/", "x"}, {`foo\ `, "foo "},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pat, rel string) {
		p, ok := parsePattern(pat)
		if !ok {
			return
		}
		p.match(rel, false)
		p.match(rel, true)
		ignoreStack{parseIgnore("d", pat)}.ignored("d/"+rel, true)
		// A plain name always matches itself.
		if !strings.ContainsAny(pat, "*?[\\/!# \r\n") && pat != "" && !p.match(pat, false) {
			t.Errorf("plain pattern %q does not match itself", pat)
		}
	})
}
