package chunk

import (
	"strings"
	"unicode/utf8"
)

// level says how a span too big for one chunk is cut; each level hands its
// pieces to the next, so a cut is made at the coarsest boundary that works.
type level uint8

const (
	bySentence level = iota
	byLine
	byWord
	byRune
)

// span is a trimmed byte range of the document that the packer places whole
// unless it is bigger than a chunk.
type span struct {
	start, end int
	tok        int
	lv         level
	head       bool   // Markdown heading: starts a section, sticks to what follows
	boundary   bool   // first span of a section: no overlap in front of it
	score      int    // Code: how good a cut just before this span is
	path       string // Markdown heading path in force
}

// piece is a chunk before overlap: a trimmed byte range of the document.
type piece struct {
	start, end int
	heading    string
	boundary   bool
}

// packer fills chunks greedily with spans.
type packer struct {
	d          *doc
	max, slack int
	cur        []span
	tok        int  // sum of cur's tokens, which bounds Tokens of the range
	content    bool // cur holds more than headings
	out        []piece
}

// limit is the budget of the chunk being filled. A chunk holding only
// headings will start a section and so gets no overlap; it may spend the
// overlap budget to keep the heading with its content.
func (p *packer) limit() int {
	if len(p.cur) > 0 && !p.content {
		return p.max + p.slack
	}
	return p.max
}

func (p *packer) add(s span) {
	for {
		if s.head && p.content {
			p.flush(len(p.cur))
		}
		headOnly := len(p.cur) > 0 && !p.content
		switch {
		case p.tok+s.tok <= p.limit():
			p.cur = append(p.cur, s)
			p.tok += s.tok
			p.content = p.content || !s.head
			return
		case s.head && s.tok <= p.max:
			p.flush(len(p.cur)) // headings piled up with no content between them
		case s.tok > p.max || headOnly:
			p.split(s) // too big, or must start next to its heading: fill by pieces
			return
		default:
			p.flush(p.cut(s.score))
		}
	}
}

// cut picks how many spans of cur to emit before s. For code it prefers the
// best-scored boundary (a top-level declaration) in the second half of the
// chunk over the one at s; the spans after the cut carry into the next chunk.
func (p *packer) cut(score int) int {
	at, best, sum := len(p.cur), score, p.cur[0].tok
	for i := 1; i < len(p.cur); i++ {
		if sum >= p.max/2 && p.cur[i].score > best {
			at, best = i, p.cur[i].score
		}
		sum += p.cur[i].tok
	}
	return at
}

func (p *packer) flush(n int) {
	if n == 0 {
		return
	}
	c := p.cur[:n]
	h := c[n-1].path
	for _, s := range c {
		if !s.head {
			h = s.path
			break
		}
	}
	p.out = append(p.out, piece{start: c[0].start, end: c[n-1].end, heading: h, boundary: c[0].boundary})
	p.cur = p.cur[:copy(p.cur, p.cur[n:])]
	p.tok, p.content = 0, false
	for _, s := range p.cur {
		p.tok += s.tok
		p.content = p.content || !s.head
	}
}

// split feeds s to the packer in pieces of the next finer level.
func (p *packer) split(s span) {
	if s.lv >= byRune {
		p.hard(s)
		return
	}
	t := p.d.text
	first := true
	emit := func(a, b int) {
		p.add(span{start: a, end: b, tok: Tokens(t[a:b]), lv: s.lv + 1, boundary: first && s.boundary, path: s.path})
		first = false
	}
	switch s.lv {
	case bySentence:
		sentences(t, s.start, s.end, emit)
	case byLine:
		lines(t, s.start, s.end, emit)
	default:
		words(t, s.start, s.end, emit)
	}
}

// hard cuts a single word at rune boundaries, filling the current chunk's
// remaining room exactly so even a huge word obeys the limit.
func (p *packer) hard(s span) {
	t := p.d.text
	first := s.boundary
	for a := s.start; a < s.end; {
		room := p.limit() - p.tok
		if room <= 0 {
			p.flush(len(p.cur))
			room = p.limit()
		}
		var c counter
		b := a
		for b < s.end {
			r, n := utf8.DecodeRuneInString(t[b:s.end])
			if c.add(classOf(r)); c.n > room {
				break
			}
			b += n
		}
		p.add(span{start: a, end: b, tok: Tokens(t[a:b]), lv: byRune, boundary: first, path: s.path})
		a, first = b, false
	}
}

// lines emits the non-blank lines of [s, e), keeping their indentation.
func lines(t string, s, e int, emit func(a, b int)) {
	for a := s; a < e; {
		b := e
		if k := strings.IndexByte(t[a:e], '\n'); k >= 0 {
			b = a + k
		}
		if l := strings.TrimRightFunc(t[a:b], isSpace); strings.TrimSpace(l) != "" {
			emit(a, a+len(l))
		}
		a = b + 1
	}
}

// words emits the maximal runs of non-space in [s, e).
func words(t string, s, e int, emit func(a, b int)) {
	a := -1
	for i := s; i < e; {
		r, n := utf8.DecodeRuneInString(t[i:e])
		if sp := isSpace(r); sp && a >= 0 {
			emit(a, i)
			a = -1
		} else if !sp && a < 0 {
			a = i
		}
		i += n
	}
	if a >= 0 {
		emit(a, e)
	}
}

// sentences emits the sentences of [s, e): a cut follows . ! ? (plus closing
// quotes or brackets) before whitespace, or any CJK full stop.
func sentences(t string, s, e int, emit func(a, b int)) {
	a := skipSpace(t, s, e)
	for i := a; i < e; {
		r, n := utf8.DecodeRuneInString(t[i:e])
		i += n
		cjk := r == '。' || r == '！' || r == '？'
		if r != '.' && r != '!' && r != '?' && r != '…' && !cjk {
			continue
		}
		for i < e {
			c, m := utf8.DecodeRuneInString(t[i:e])
			if !isCloser(c) {
				break
			}
			i += m
		}
		if c, _ := utf8.DecodeRuneInString(t[i:e]); i < e && !cjk && !isSpace(c) {
			continue
		}
		emit(a, i)
		a = skipSpace(t, i, e)
		i = a
	}
	if a < e {
		emit(a, a+len(strings.TrimRightFunc(t[a:e], isSpace)))
	}
}

func isCloser(r rune) bool {
	return strings.ContainsRune(`"')]}”’»」』`, r)
}

// endsSentence reports whether s ends a sentence, ignoring trailing space.
func endsSentence(s string) bool {
	s = strings.TrimRightFunc(s, isSpace)
	s = strings.TrimRightFunc(s, isCloser)
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?…。！？", r)
}

func skipSpace(t string, i, e int) int {
	for i < e {
		r, n := utf8.DecodeRuneInString(t[i:e])
		if !isSpace(r) {
			break
		}
		i += n
	}
	return i
}

// block makes the span of lines a..b (inclusive), trailing space trimmed.
func (d *doc) block(a, b int, lv level) span {
	s := d.lines[a]
	e := s + len(strings.TrimRightFunc(d.text[s:d.lines[b]+len(d.line(b))], isSpace))
	return span{start: s, end: e, tok: Tokens(d.text[s:e]), lv: lv}
}

// paragraphs emits blank-line separated blocks (Text and Code). For code it
// scores each block by how much its first line looks like the start of a
// top-level declaration.
func (d *doc) paragraphs(lv level, code bool, emit func(span)) {
	n := len(d.lines)
	for i := 0; i < n; {
		if blank(d.line(i)) {
			i++
			continue
		}
		j := i + 1
		for j < n && !blank(d.line(j)) {
			j++
		}
		s := d.block(i, j-1, lv)
		if code {
			s.score = codeScore(d.line(i))
		}
		emit(s)
		i = j
	}
}

func blank(l string) bool { return strings.TrimSpace(l) == "" }

// codeScore: 2 for a declaration, comment, decorator or directive at column
// 0, 1 for other column-0 code, 0 for indented code and closing brackets.
func codeScore(l string) int {
	if l == "" || isSpace(rune(l[0])) || strings.IndexByte("})]", l[0]) >= 0 {
		return 0
	}
	for _, p := range []string{"//", "/*", "#", "@", "--", `"""`, "'''", "<!--"} {
		if strings.HasPrefix(l, p) {
			return 2
		}
	}
	w := l
	if k := strings.IndexAny(l, " \t(<:{"); k >= 0 {
		w = l[:k]
	}
	switch w {
	case "func", "def", "class", "type", "struct", "interface", "enum", "trait",
		"impl", "fn", "pub", "export", "public", "private", "protected", "static",
		"const", "var", "let", "package", "import", "module", "async", "function",
		"template", "namespace", "object", "val", "fun", "data", "sealed", "abstract",
		"final", "extern", "typedef", "mod", "use", "local", "create", "CREATE":
		return 2
	}
	return 1
}
