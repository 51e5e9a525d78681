// Package chunk splits Markdown, plain text and source code into
// token-bounded, overlapping chunks for a memory store. It cuts at structural
// boundaries (headings, paragraphs, lists, fenced code, top-level
// declarations) and falls back to lines, sentences, words and finally bytes
// only for pieces too large to keep whole.
package chunk

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Format of the input.
type Format int

const (
	Text Format = iota
	Markdown
	Code
)

// Options bound the chunk size. Zero fields take the defaults. A negative
// OverlapTokens disables overlap; one not below MaxTokens is reduced to
// MaxTokens/2, so a small MaxTokens with the default overlap still works.
type Options struct {
	MaxTokens     int // target size of a chunk, default 400
	OverlapTokens int // tokens repeated from the end of the previous chunk, default 50; must be < MaxTokens
}

// norm applies the defaults and limits documented on Options.
func (o Options) norm() (maxTok, overlap int) {
	maxTok, overlap = o.MaxTokens, o.OverlapTokens
	if maxTok <= 0 {
		maxTok = 400
	}
	switch {
	case overlap == 0:
		overlap = 50
	case overlap < 0:
		overlap = 0
	}
	if overlap >= maxTok {
		overlap = maxTok / 2
	}
	return maxTok, overlap
}

// Chunk is one piece of a document. Text is the overlap (if any) followed by
// the chunk's own part; LineStart and LineEnd describe only that own part, so
// the line ranges of consecutive chunks never overlap. A Chunk does not share
// memory with the input.
type Chunk struct {
	Text      string // the chunk text (never empty, valid UTF-8 when the input is)
	Index     int    // 0-based position in the document
	LineStart int    // 1-based first line of the chunk in the input
	LineEnd   int    // 1-based last line (inclusive)
	Heading   string // Markdown: the heading path in force at the chunk start, e.g. "Install > Linux"; empty otherwise
}

// Split returns the chunks of text. Empty or whitespace-only input gives nil.
//
// Every chunk's Tokens is at most MaxTokens+OverlapTokens. A chunk that
// starts a Markdown section begins with its heading(s), carries no overlap,
// and may use that unused overlap budget to keep the heading with its content;
// its Heading includes those leading headings.
func Split(text string, f Format, o Options) []Chunk {
	d, pieces := split(text, f, o)
	if len(pieces) == 0 {
		return nil
	}
	_, budget := o.norm()
	out := make([]Chunk, len(pieces))
	for i, p := range pieces {
		body := d.text[p.start:p.end]
		t := ""
		if i > 0 && !p.boundary && budget > 0 {
			prev := pieces[i-1]
			if s := d.overlapStart(prev, budget); s >= 0 {
				t = d.text[s:prev.end] + sep(d.text[prev.end:p.start]) + body
			}
		}
		if t == "" {
			t = strings.Clone(body) // don't pin the whole input
		}
		out[i] = Chunk{Text: t, Index: i, LineStart: d.lineOf(p.start), LineEnd: d.lineOf(p.end - 1), Heading: p.heading}
	}
	return out
}

// split chunks text without overlap; tests use it to check the pieces tile
// the input.
func split(text string, f Format, o Options) (*doc, []piece) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	d := newDoc(text)
	maxTok, overlap := o.norm()
	p := &packer{d: d, max: maxTok, slack: overlap}
	switch f {
	case Markdown:
		d.markdown(p.add)
	case Code:
		d.paragraphs(byLine, true, p.add)
	default:
		d.paragraphs(bySentence, false, p.add)
	}
	p.flush(len(p.cur))
	return d, p.out
}

// doc is the input with CRLF folded to LF and an index of line starts.
type doc struct {
	text   string
	lines  []int    // byte offset of each line start
	fences [][2]int // Markdown fenced code: overlap must not start inside one
}

func newDoc(text string) *doc {
	if strings.Contains(text, "\r\n") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	lines := make([]int, 1, 1+len(text)/40)
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		lines = append(lines, i)
	}
	return &doc{text: text, lines: lines}
}

// line returns line i (0-based) without its newline.
func (d *doc) line(i int) string {
	end := len(d.text)
	if i+1 < len(d.lines) {
		end = d.lines[i+1] - 1
	}
	return d.text[d.lines[i]:end]
}

// lineOf returns the 1-based line holding byte off.
func (d *doc) lineOf(off int) int {
	return sort.SearchInts(d.lines, off+1)
}

func (d *doc) inFence(off int) bool {
	k := sort.Search(len(d.fences), func(k int) bool { return d.fences[k][1] > off })
	return k < len(d.fences) && d.fences[k][0] < off
}

// overlapStart picks where the overlap taken from the end of prev begins, or
// -1 for none: the most whole trailing lines that fit the budget, else the
// most trailing sentences of the last line, else its trailing words. It never
// starts inside a fenced code block, so a fence is repeated whole or not at all.
func (d *doc) overlapStart(prev piece, budget int) int {
	t := d.text
	best, acc := -1, 0
	for e := prev.end; e > prev.start; {
		ls := prev.start + strings.LastIndexByte(t[prev.start:e], '\n') + 1
		if acc += Tokens(t[ls:e]); acc > budget {
			if e == prev.end {
				return d.tailWords(ls, e, budget)
			}
			break
		}
		if strings.TrimSpace(t[ls:e]) != "" && !d.inFence(ls) {
			best = ls
		}
		e = ls - 1
	}
	return best
}

// tailWords is overlapStart for a last line [ls, end) over the budget: the
// earliest sentence start that fits, else the earliest word start.
func (d *doc) tailWords(ls, end, budget int) int {
	t := d.text
	best, sent, acc := -1, -1, 0
	for e := end; e > ls; {
		ws := e
		for ws > ls {
			r, n := utf8.DecodeLastRuneInString(t[ls:ws])
			if isSpace(r) {
				break
			}
			ws -= n
		}
		if acc += Tokens(t[ws:e]); acc > budget {
			break
		}
		if !d.inFence(ws) {
			best = ws
			if ws == ls || endsSentence(t[ls:ws]) {
				sent = ws
			}
		}
		for e = ws; e > ls; {
			r, n := utf8.DecodeLastRuneInString(t[ls:e])
			if !isSpace(r) {
				break
			}
			e -= n
		}
	}
	if sent >= 0 {
		return sent
	}
	return best
}

// sep stands in for the whitespace that separated two pieces in the input.
func sep(gap string) string {
	switch n := strings.Count(gap, "\n"); {
	case gap == "":
		return "" // a word was split hard: keep it one word
	case n == 0:
		return " "
	case n == 1:
		return "\n"
	}
	return "\n\n"
}
