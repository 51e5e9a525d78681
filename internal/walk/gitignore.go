package walk

import "strings"

// This file implements git's ignore-pattern language (gitignore(5)) with the
// semantics of git's wildmatch: bytes, not runes, and '*', '?' and classes
// never match '/'. It is kept separate from the walker so it can be tested
// against git's documented examples on its own.

// pattern is one parsed .gitignore line.
type pattern struct {
	segs     []string // one glob per path segment; a "**" segment spans any number of segments
	neg      bool     // "!": re-include what an earlier pattern excluded
	dirOnly  bool     // trailing "/": matches directories only
	anchored bool     // a leading or middle "/": matched against the whole path, not the base name
}

// parsePattern parses one line; ok is false for blank lines, comments and
// lines that can never match.
func parsePattern(line string) (p pattern, ok bool) {
	line = strings.TrimSuffix(line, "\r") // files edited on Windows
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	if line[0] == '!' {
		p.neg, line = true, line[1:]
	}
	// A leading "\#" or "\!" needs no work here: the glob matcher treats
	// "\x" as a literal x.
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, line[:len(line)-1]
	}
	if strings.HasPrefix(line, "/") {
		p.anchored, line = true, line[1:]
	}
	if line == "" || (strings.HasSuffix(line, `\`) && !escapedAt(line, len(line)-1)) {
		return p, false // nothing left, or a dangling escape (never matches in git)
	}
	p.segs = splitSegs(line)
	if len(p.segs) > 1 {
		p.anchored = true
	}
	// A trailing "/**" matches everything inside, but not the directory itself,
	// so it must consume at least one segment: "*" then "**".
	if n := len(p.segs); p.anchored && p.segs[n-1] == "**" {
		p.segs = append(p.segs[:n-1], "*", "**")
	}
	return p, true
}

// trimTrailingSpaces drops unescaped trailing spaces, as git does.
func trimTrailingSpaces(s string) string {
	end := -1 // start of the current run of unescaped spaces
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if end < 0 {
				end = i
			}
		case '\\':
			i++ // an escaped byte, even a space, ends the run
			end = -1
		default:
			end = -1
		}
	}
	if end >= 0 {
		return s[:end]
	}
	return s
}

// escapedAt reports whether s[i] is preceded by an odd number of backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// splitSegs splits on '/', treating an escaped "\/" as a separator too
// (wildmatch lets it match '/', which only a separator can).
func splitSegs(s string) []string {
	var segs []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '/':
			i++
			fallthrough
		case s[i] == '/':
			segs = append(segs, cur.String())
			cur.Reset()
		case s[i] == '\\' && i+1 < len(s):
			cur.WriteString(s[i : i+2])
			i++
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(segs, cur.String())
}

// match reports whether rel (slash-separated, relative to the directory of
// the pattern's .gitignore) matches p. It ignores p.neg.
func (p *pattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !p.anchored {
		return globMatch(p.segs[0], rel[strings.LastIndexByte(rel, '/')+1:])
	}
	return matchSegs(p.segs, strings.Split(rel, "/"))
}

// matchSegs matches path segments against pattern segments, "**" acting as a
// star over whole segments. Greedy matching with backtracking to the last
// star is exact here because every other element consumes exactly one segment.
func matchSegs(pat, segs []string) bool {
	pi, si, starP, starS := 0, 0, -1, 0
	for si < len(segs) {
		switch {
		case pi < len(pat) && pat[pi] == "**":
			starP, starS = pi, si
			pi++
		case pi < len(pat) && globMatch(pat[pi], segs[si]):
			pi++
			si++
		case starP >= 0:
			starS++
			pi, si = starP+1, starS
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == "**" {
		pi++
	}
	return pi == len(pat)
}

// globMatch matches one segment: '*' (a "**" inside a segment is just '*'),
// '?', '[...]' and '\' escapes.
func globMatch(p, s string) bool {
	px, sx, starP, starS := 0, 0, -1, 0
	for px < len(p) || sx < len(s) {
		if px < len(p) {
			switch c := p[px]; {
			case c == '*':
				starP, starS = px, sx
				px++
				continue
			case sx >= len(s):
			case c == '?':
				px++
				sx++
				continue
			case c == '[':
				ok, n, valid := matchClass(p[px:], s[sx])
				if !valid {
					return false // unterminated or malformed class: wildmatch aborts
				}
				if ok {
					px += n
					sx++
					continue
				}
			case c == '\\':
				if px+1 < len(p) && p[px+1] == s[sx] {
					px += 2
					sx++
					continue
				}
			case c == s[sx]:
				px++
				sx++
				continue
			}
		}
		if starP < 0 || starS >= len(s) {
			return false
		}
		starS++
		px, sx = starP+1, starS
	}
	return true
}

// matchClass matches byte c against the class at the start of p ("[...]").
// It returns whether c matched, the class's length in p, and whether the class
// is well formed. As in git, a ']' first in the set is literal and
// "[:name:]" is a POSIX class.
func matchClass(p string, c byte) (matched bool, n int, valid bool) {
	i, neg := 1, false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	for first := true; ; first = false {
		if i >= len(p) {
			return false, 0, false
		}
		lo := p[i]
		if lo == ']' && !first {
			return matched != neg, i + 1, true
		}
		if lo == '[' && i+1 < len(p) && p[i+1] == ':' {
			j := strings.IndexByte(p[i+2:], ']')
			if j < 0 {
				return false, 0, false
			}
			if j >= 1 && p[i+2+j-1] == ':' {
				in, known := posixClass(p[i+2:i+2+j-1], c)
				if !known {
					return false, 0, false
				}
				matched = matched || in
				i += 2 + j + 1
				continue
			}
		}
		if lo == '\\' {
			if i++; i >= len(p) {
				return false, 0, false
			}
			lo = p[i]
		}
		i++
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi := p[i+1]
			i += 2
			if hi == '\\' {
				if i >= len(p) {
					return false, 0, false
				}
				hi = p[i]
				i++
			}
			// git tests the low end as a literal before it sees the '-', so a
			// reversed range like "[x-a]" still matches 'x'.
			matched = matched || c == lo || (lo <= c && c <= hi)
			continue
		}
		matched = matched || c == lo
	}
}

// posixClass reports whether c is in the named class, and whether the name is known.
func posixClass(name string, c byte) (in, known bool) {
	lower, upper, digit := 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9'
	graph := c > ' ' && c < 0x7f
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < ' ' || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return lower, true
	case "print":
		return graph || c == ' ', true
	case "punct":
		return graph && !lower && !upper && !digit, true
	case "space":
		return c == ' ' || ('\t' <= c && c <= '\r'), true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}

// ignoreFile holds the patterns of one .gitignore (or info/exclude).
type ignoreFile struct {
	dir  string // slash path of its directory relative to the walk root; "" is the root
	pats []pattern
}

func parseIgnore(dir, content string) ignoreFile {
	f := ignoreFile{dir: dir}
	content = strings.TrimPrefix(content, "\ufeff") // git skips a UTF-8 BOM too
	for _, line := range strings.Split(content, "\n") {
		if p, ok := parsePattern(line); ok {
			f.pats = append(f.pats, p)
		}
	}
	return f
}

// ignoreStack is the ignore files in force for a directory, shallowest (and
// info/exclude, which git ranks lowest) first.
type ignoreStack []ignoreFile

// ignored reports whether rel (relative to the walk root) is excluded: the
// last matching pattern of the deepest file that has one decides. It looks at
// rel alone; git's rule that nothing under an excluded directory can be
// re-included is the caller's job, by not descending into such directories.
func (s ignoreStack) ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		f, sub := s[i], rel
		if f.dir != "" {
			if !strings.HasPrefix(rel, f.dir+"/") {
				continue
			}
			sub = rel[len(f.dir)+1:]
		}
		for j := len(f.pats) - 1; j >= 0; j-- {
			if f.pats[j].match(sub, isDir) {
				return !f.pats[j].neg
			}
		}
	}
	return false
}
