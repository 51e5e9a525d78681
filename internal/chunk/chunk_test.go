package chunk

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// nonSpace is s without whitespace: what Split must never lose.
func nonSpace(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// check splits text and verifies every invariant Split promises.
func check(t testing.TB, text string, f Format, o Options) []Chunk {
	t.Helper()
	chunks := Split(text, f, o)
	if strings.TrimSpace(text) == "" {
		if chunks != nil {
			t.Fatalf("blank input gave %d chunks", len(chunks))
		}
		return nil
	}
	d, pieces := split(text, f, o)
	if len(chunks) != len(pieces) || len(chunks) == 0 {
		t.Fatalf("got %d chunks for %d pieces", len(chunks), len(pieces))
	}
	maxTok, overlap := o.norm()
	var all strings.Builder
	for i, c := range chunks {
		p := pieces[i]
		body := d.text[p.start:p.end]
		all.WriteString(nonSpace(body))
		if c.Index != i {
			t.Fatalf("chunk %d has Index %d", i, c.Index)
		}
		if !strings.HasSuffix(c.Text, body) || body == "" {
			t.Fatalf("chunk %d %q does not end with its part %q", i, c.Text, body)
		}
		if ov := c.Text[:len(c.Text)-len(body)]; ov != "" {
			prev := pieces[max(i-1, 0)]
			if i == 0 || p.boundary || !strings.HasSuffix(d.text[prev.start:prev.end], strings.TrimSpace(ov)) {
				t.Fatalf("chunk %d: bad overlap %q", i, ov)
			}
		}
		ls := strings.Split(c.Text, "\n")
		if blank(ls[0]) || blank(ls[len(ls)-1]) {
			t.Fatalf("chunk %d has a blank first or last line: %q", i, c.Text)
		}
		if utf8.ValidString(text) && !utf8.ValidString(c.Text) {
			t.Fatalf("chunk %d is not valid UTF-8: %q", i, c.Text)
		}
		if n := Tokens(c.Text); n > maxTok+overlap {
			t.Fatalf("chunk %d has %d tokens, limit %d+%d: %q", i, n, maxTok, overlap, c.Text)
		}
		if c.LineStart < 1 || c.LineEnd < c.LineStart || c.LineEnd > len(d.lines) ||
			i > 0 && c.LineStart < chunks[i-1].LineEnd {
			t.Fatalf("chunk %d has bad lines %d-%d", i, c.LineStart, c.LineEnd)
		}
	}
	if got, want := all.String(), nonSpace(text); got != want {
		t.Fatalf("text lost or reordered:\n got %q\nwant %q", got, want)
	}
	return chunks
}

func noOverlap(max int) Options { return Options{MaxTokens: max, OverlapTokens: -1} }

func TestEmpty(t *testing.T) {
	for _, s := range []string{"", " ", "\n\n", "\r\n\t \r\n", "\u00a0\u3000"} {
		for _, f := range []Format{Text, Markdown, Code} {
			if c := Split(s, f, Options{}); c != nil {
				t.Errorf("Split(%q, %d) = %v, want nil", s, f, c)
			}
		}
	}
}

func TestMarkdownSections(t *testing.T) {
	md := "# Install\n\nRun the installer.\n\n## Linux\n\nUse apt.\nOr snap.\n\n## macOS\n\nUse brew.\n"
	want := []Chunk{
		{Text: "# Install\n\nRun the installer.", Index: 0, LineStart: 1, LineEnd: 3, Heading: "Install"},
		{Text: "## Linux\n\nUse apt.\nOr snap.", Index: 1, LineStart: 5, LineEnd: 8, Heading: "Install > Linux"},
		{Text: "## macOS\n\nUse brew.", Index: 2, LineStart: 10, LineEnd: 12, Heading: "Install > macOS"},
	}
	if got := check(t, md, Markdown, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	// CRLF gives the same chunks.
	if got := check(t, strings.ReplaceAll(md, "\n", "\r\n"), Markdown, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("CRLF: got %#v", got)
	}
}

func TestHeadingKeepsContent(t *testing.T) {
	tests := []struct {
		md, heading, first string
	}{
		{"# A\n\n## B ##\n\ntext", "A > B", "# A\n\n## B ##\n\ntext"},
		{"Title\n=====\n\nSub\n---\nbody", "Title > Sub", "Title\n=====\n\nSub"},
		{"# C#\n\n" + strings.Repeat("word ", 60), "C#", "# C#\n\nword"},
		{"## Big\n\n```\n" + strings.Repeat("x = 1\n", 30) + "```\nafter", "Big", "## Big\n\n```\nx = 1"},
	}
	for _, tt := range tests {
		chunks := check(t, tt.md, Markdown, Options{MaxTokens: 20, OverlapTokens: 5})
		var last Chunk
		for _, c := range chunks {
			if _, _, h := atx(c.Text); h && !strings.Contains(c.Text, "\n") {
				t.Errorf("%q: heading-only chunk %q", tt.md, c.Text)
			}
			if strings.HasPrefix(c.Text, tt.first) {
				last = c
			}
		}
		if last.Heading != tt.heading {
			t.Errorf("%q: no chunk starting %q with heading %q: %#v", tt.md, tt.first, tt.heading, chunks)
		}
	}
}

func TestFenceKeptWhole(t *testing.T) {
	para := "This paragraph has a few words in it to take up room.\n\n"
	fence := "~~~go\nfunc f() {\n\n\treturn 1 + 2 + 3\n}\n~~~"
	md := "# T\n\n" + para + para + "  " + fence + "\n\n" + para + para
	chunks := check(t, md, Markdown, Options{MaxTokens: 40, OverlapTokens: 10})
	whole := 0
	for _, c := range chunks {
		if strings.Contains(c.Text, fence) {
			whole++
		}
		if n := strings.Count(c.Text, "~~~"); n%2 != 0 {
			t.Errorf("chunk cuts the fence: %q", c.Text)
		}
	}
	if whole != 1 || len(chunks) < 3 {
		t.Errorf("fence whole in %d of %d chunks", whole, len(chunks))
	}
	// An unclosed fence runs to the end, blank lines and headings included.
	chunks = check(t, "text\n\n```\na\n\n# not a heading\n", Markdown, Options{})
	if len(chunks) != 1 || chunks[0].Heading != "" {
		t.Errorf("unclosed fence: %#v", chunks)
	}
}

func TestOversizedFence(t *testing.T) {
	var b strings.Builder
	b.WriteString("Intro.\n\n```\n")
	for i := range 100 {
		fmt.Fprintf(&b, "line %d = value\n", i)
	}
	b.WriteString("```\n")
	chunks := check(t, b.String(), Markdown, Options{MaxTokens: 50, OverlapTokens: 10})
	if len(chunks) < 8 {
		t.Fatalf("only %d chunks", len(chunks))
	}
	for _, c := range chunks[1:] {
		if !strings.HasPrefix(c.Text, "line ") && !strings.HasPrefix(c.Text, "```") {
			t.Errorf("not cut at a line: %q", c.Text)
		}
	}
}

func TestOverlap(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "Sentence %d is here. ", i)
		if i%4 == 3 {
			b.WriteString("\n\n")
		}
	}
	chunks := check(t, b.String(), Text, Options{MaxTokens: 30, OverlapTokens: 10})
	_, pieces := split(b.String(), Text, Options{MaxTokens: 30, OverlapTokens: 10})
	for i, c := range chunks[1:] {
		ov := strings.TrimSpace(strings.TrimSuffix(c.Text, b.String()[pieces[i+1].start:pieces[i+1].end]))
		if ov == "" || Tokens(ov) > 10 || !strings.HasPrefix(ov, "Sentence") {
			t.Errorf("chunk %d: overlap %q", i+1, ov)
		}
		if c.LineStart <= chunks[i].LineEnd {
			t.Errorf("chunk %d lines %d-%d after %d-%d", i+1, c.LineStart, c.LineEnd, chunks[i].LineStart, chunks[i].LineEnd)
		}
	}
}

func TestNoOverlapAcrossHeadings(t *testing.T) {
	sec := strings.Repeat("Some words make a line here.\n", 12)
	md := "# One\n\n" + sec + "\n# Two\n\n" + sec
	chunks := check(t, md, Markdown, Options{MaxTokens: 40, OverlapTokens: 10})
	heads, overlapped := 0, 0
	for _, c := range chunks {
		switch {
		case strings.HasPrefix(c.Text, "# "):
			heads++
		case strings.Count(c.Text, "\n")+1 > c.LineEnd-c.LineStart+1:
			overlapped++
		}
	}
	if heads != 2 || overlapped != len(chunks)-2 {
		t.Errorf("%d heading chunks, %d with overlap, of %d", heads, overlapped, len(chunks))
	}
}

func TestCodeCutsAtDeclarations(t *testing.T) {
	var b strings.Builder
	b.WriteString("package demo\n\n")
	for i := range 12 {
		fmt.Fprintf(&b, "// F%d returns a number.\nfunc F%d() int {\n\tx := %d\n\n\treturn x * 2\n}\n\n", i, i, i)
	}
	for _, c := range check(t, b.String(), Code, noOverlap(45))[1:] {
		if !strings.HasPrefix(c.Text, "// F") {
			t.Errorf("chunk does not start at a declaration: %q", c.Text)
		}
	}
}

func TestLongWordAndLines(t *testing.T) {
	word := strings.Repeat("ab€", 2000)
	chunks := check(t, "start "+word+" end\nnext line", Text, Options{MaxTokens: 25, OverlapTokens: 5})
	if len(chunks) < 10 || chunks[len(chunks)-1].LineEnd != 2 || chunks[1].LineStart != 1 {
		t.Errorf("%d chunks, last ends at line %d", len(chunks), chunks[len(chunks)-1].LineEnd)
	}
	check(t, strings.Repeat("{\"k\":[1,2,3]},", 3000), Code, Options{MaxTokens: 100})
	check(t, strings.Repeat("一二三四五。", 500), Text, Options{MaxTokens: 30})
}

func TestSentences(t *testing.T) {
	var got []string
	s := `He said "stop." Then left! Pi is 3.14 ok? 終わり。次`
	sentences(s, 0, len(s), func(a, b int) { got = append(got, s[a:b]) })
	want := []string{`He said "stop."`, "Then left!", "Pi is 3.14 ok?", "終わり。", "次"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
}

func TestTokens(t *testing.T) {
	for s, want := range map[string]int{
		"": 0, " \n": 0, "hello world": 2, "a, b.": 4, "foo(bar);": 4,
		"中文字": 3, "internationalization": 4, "--------": 3, "é\xffx": 1,
	} {
		if got := Tokens(s); got != want {
			t.Errorf("Tokens(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]Format{
		"README.md": Markdown, "doc.MDX": Markdown, "a/b.markdown": Markdown,
		"main.go": Code, "x.tsx": Code, "Makefile": Code, "build/Dockerfile": Code,
		"conf.yml": Code, "a.R": Code, "notes.txt": Text, "LICENSE": Text, "x.md.bak": Text,
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %d, want %d", name, got, want)
		}
	}
}

var fragments = []string{
	"# Title\n", "## Sub #\n", "### Deep\n", "Setext\n===\n", "\n", "\n\n", "\r\n",
	"A plain sentence. Another one! A question? ", "word ", "  indented line\n",
	"- item one\n", "  continued\n", "1. numbered\n", "```go\n", "```\n", "~~~\n",
	"func main() {\n", "}\n", "def f(x):\n    return x\n", "\tx := 1\n",
	strings.Repeat("longword", 40), "中文句子。", "\xff\xfe", "é", "---\n", " \u00a0 ",
}

func randomDoc(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(300) {
		b.WriteString(fragments[r.IntN(len(fragments))])
	}
	return b.String()
}

func TestProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		text := randomDoc(r)
		f := Format(r.IntN(3))
		o := Options{MaxTokens: r.IntN(80), OverlapTokens: r.IntN(40) - 8}
		check(t, text, f, o)
		// With overlap off the chunks alone tile the input.
		var all strings.Builder
		for _, c := range Split(text, f, noOverlap(o.MaxTokens)) {
			all.WriteString(nonSpace(c.Text))
		}
		if all.String() != nonSpace(text) {
			t.Fatalf("chunks do not tile %q", text)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("# A\n\nb\n\n```\nc\n```\n", uint8(1), uint16(5), int16(2))
	f.Add("Hello. World!\r\n\r\nNext para.", uint8(0), uint16(3), int16(1))
	f.Add("func a() {\n}\n\nfunc b() {}\n", uint8(2), uint16(4), int16(0))
	f.Add(strings.Repeat("x", 100)+"\xff", uint8(0), uint16(2), int16(-1))
	f.Add("- a\n\n  b\n- c\n---\nd\n===", uint8(1), uint16(2), int16(1))
	f.Fuzz(func(t *testing.T, text string, format uint8, maxTok uint16, overlap int16) {
		check(t, text, Format(format%3), Options{MaxTokens: int(maxTok % 300), OverlapTokens: int(overlap % 64)})
	})
}

// benchDoc is a ~1 MiB Markdown document of sections, prose, lists and code.
func benchDoc() string {
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("the memory store keeps chunks of text with headings lists and code so that search finds them quickly")
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		for range 3 + r.IntN(4) {
			for range 20 + r.IntN(60) {
				b.WriteString(words[r.IntN(len(words))])
				b.WriteString([]string{" ", " ", " ", ". ", ", ", "\n"}[r.IntN(6)])
			}
			b.WriteString("\n\n")
		}
		b.WriteString("- first item\n- second item\n  continued\n\n```go\nfunc f() int {\n\treturn 42\n}\n```\n\n")
	}
	return b.String()
}

func BenchmarkSplit(b *testing.B) {
	doc := benchDoc()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Split(doc, Markdown, Options{})
	}
}
