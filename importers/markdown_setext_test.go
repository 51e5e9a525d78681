package importers_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/importers"
)

// parseMemory parses text as one memory file named CLAUDE.md.
func parseMemory(text string) ([]*mneme.Record, error) {
	f, _ := importers.Lookup("markdown-memory")
	return f.Parse(importers.Input{Project: "p", Files: []importers.File{{Name: "CLAUDE.md", Data: []byte(text)}}})
}

// sectionsOf is each record as "title lines start-end: text".
func sectionsOf(t *testing.T, text string) []string {
	t.Helper()
	recs, err := parseMemory(text)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, fmt.Sprintf("%s %d-%d: %s", r.Title, r.Source.LineStart, r.Source.LineEnd, strings.ReplaceAll(r.Text, "\n", "|")))
	}
	return out
}

// TestMarkdownSetext: setext headings (a paragraph underlined with = or
// -) split sections as ATX headings do, at their levels; a --- that
// fences front matter, follows a blank line (a thematic break) or closes
// a list item or code is not a heading.
func TestMarkdownSetext(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"h1 and h2", "Build\n=====\n\nRun make ci.\n\nTests\n-----\nUse go test.\n",
			[]string{"Build 1-4: Run make ci.", "Build > Tests 6-8: Use go test."}},
		{"under ATX", "# Guide\n\nIntro.\n\nDeploy\n---\nOn Tuesdays.\n",
			[]string{"Guide 1-3: Intro.", "Guide > Deploy 5-7: On Tuesdays."}},
		{"two-line heading", "Text before.\n\nRelease\nprocess\n=======\nTag it.\n",
			[]string{"CLAUDE.md 1-1: Text before.", "Release process 3-6: Tag it."}},
		{"thematic break after a blank line", "# A\n\none\n\n---\n\ntwo\n",
			[]string{"A 1-7: one||---||two"}},
		{"front matter", "---\ndescription: rules\n---\n# A\n\nbody\n",
			[]string{"A 4-6: body"}},
		{"front matter, then setext", "---\nx: 1\n---\nTitle\n=====\nbody\n",
			[]string{"Title 4-6: body"}},
		{"list item then ---", "# A\n\n- one\n---\nafter\n",
			[]string{"A 1-5: - one|---|after"}},
		{"code fence", "# A\n\n```\ncode\n---\n```\n",
			[]string{"A 1-6: ```|code|---|```"}},
		{"indented code", "# A\n\n    code\n    ---\n",
			[]string{"A 1-4: code|    ---"}},
		{"underline at the top", "===\ntext\n",
			[]string{"CLAUDE.md 1-2: ===|text"}},
		{"*** is a break", "# A\n\npara\n***\nmore\n",
			[]string{"A 1-5: para|***|more"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := sectionsOf(t, c.text)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("%q:\ngot  %q\nwant %q", c.text, got, c.want)
			}
		})
	}
}

// FuzzMarkdownSections: any text parses without a panic into sections
// whose line ranges lie in the file, in order, without overlap, each with
// text and a unique id; or is refused as bad input.
func FuzzMarkdownSections(f *testing.F) {
	for _, s := range []string{"# A\n\nx\n", "A\n=\nb\n", "---\na: 1\n---\nT\n-\nx\n", "```\n# no\n```\n", "a\n---\n---\nb\n", "- a\n---\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		recs, err := parseMemory(text)
		if err != nil {
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("%q: %v", text, err)
			}
			return
		}
		lines := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + 1
		seen, last := map[string]bool{}, 0
		for _, r := range recs {
			s := r.Source
			if s.LineStart <= last || s.LineEnd < s.LineStart || s.LineEnd > lines || strings.TrimSpace(r.Text) == "" || r.Title == "" || seen[r.ID] {
				b, _ := json.Marshal(recs)
				t.Fatalf("%q: bad section %d-%d after %d (of %d lines): %s", text, s.LineStart, s.LineEnd, last, lines, b)
			}
			seen[r.ID], last = true, s.LineEnd
		}
	})
}
