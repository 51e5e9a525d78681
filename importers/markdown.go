package importers

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/vault"
)

// The agent hosts' own memory files: MEMORY.md, CLAUDE.md, AGENTS.md,
// GEMINI.md, .cursorrules-style rule files and Cursor's .cursor/rules/*.mdc.
// Each section under a heading is one record: procedural when it says how
// to do something (rules, commands, steps), semantic otherwise; its source
// is the file's repo-relative path and the section's line range. The id
// comes from the project, the path and the heading path, so importing an
// unchanged file again writes nothing, an edited section updates its own
// record, and a section removed from the file forgets its record.
func init() {
	register(Format{Name: "markdown-memory", Either: true, RepoProject: true, Replaces: true, Read: readMarkdownMemory,
		Summary: "agent hosts' memory files (a file, or a folder searched for them): MEMORY.md, CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, .cursor/rules/*.mdc",
		Parse:   parseMarkdownMemory})
}

// MaxMemoryFileBytes bounds one memory file (the hosts load them whole
// into every session; theirs are kilobytes).
const MaxMemoryFileBytes = 4 << 20

var (
	headingRE = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	fenceRE   = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	// underlineRE is a setext heading's underline: = for level 1, - for 2.
	underlineRE = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	// notParagraph are lines that start no paragraph a setext underline
	// could turn into a heading: list items, quotes, indented code, breaks.
	notParagraph = regexp.MustCompile(`^(?: {0,3}(?:[-*+][ \t]|[-*+]$|\d{1,9}[.)](?:[ \t]|$)|>|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$|(?:-[ \t]*){3,}$|=+[ \t]*$)| {4}|\t)`)
	// howTo are headings of sections that say how to do something.
	howTo = regexp.MustCompile(`(?i)\b(build|test|run|command|workflow|setup|set up|install|deploy|release|how to|steps?|procedure|rules?|guidelines?|conventions?|style|lint|format|debug|commit|pull request|review|do not|don'?t|always|never|must|checklist)`)
)

// section is one heading's own text (up to the next heading).
type section struct {
	path       []string // the headings above it and its own
	start, end int      // lines, from 1, inclusive
	body       []string
}

func parseMarkdownMemory(in Input) ([]*mneme.Record, error) {
	var recs []*mneme.Record
	for _, f := range in.Files {
		rs, err := memoryFile(in.Project, f)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rs...)
	}
	if len(recs) == 0 {
		return nil, mneme.Invalid("no sections with text in %s: nothing to import", plural(len(in.Files)))
	}
	return recs, nil
}

func plural(n int) string {
	if n == 1 {
		return "the file"
	}
	return fmt.Sprintf("the %d files", n)
}

// memoryFile is one file's sections as records.
func memoryFile(project string, f File) ([]*mneme.Record, error) {
	if err := textOnly(f); err != nil {
		return nil, err
	}
	data := strings.ReplaceAll(string(f.Data), "\r\n", "\n")
	fm, body, err := vault.FrontMatter(data)
	if err != nil {
		return nil, lineError(f.Name, 1, "front matter: %s", strings.TrimPrefix(err.Error(), "line 1: "))
	}
	offset := strings.Count(data[:len(data)-len(body)], "\n")
	rules := isRuleFile(f.Name)
	var recs []*mneme.Record
	seen := map[string]int{}
	for _, s := range sections(strings.Split(body, "\n"), offset) {
		text := strings.TrimSpace(strings.Join(s.body, "\n"))
		if text == "" {
			continue
		}
		if len(text) > mneme.MaxTextBytes {
			return nil, lineError(f.Name, s.start, "the section is %s, over the limit of %s for one memory: split it with headings",
				mneme.FormatSize(int64(len(text))), mneme.FormatSize(mneme.MaxTextBytes))
		}
		title := strings.Join(s.path, " > ")
		if title == "" {
			title = path.Base(f.Name)
		}
		key := f.Name + "#" + title
		if seen[key]++; seen[key] > 1 { // the same heading twice in a file
			key += fmt.Sprintf("#%d", seen[key])
		}
		typ := mneme.Semantic
		if rules || howTo.MatchString(title) || commands(s.body) {
			typ = mneme.Procedural
		}
		r := &mneme.Record{ID: id("markdown-memory", project, key), Project: project, Type: typ, Kind: "instructions",
			Title: clipTitle(title), Text: text, Tags: hostTags(f.Name),
			Source: &mneme.Source{URI: f.Name, LineStart: s.start, LineEnd: s.end},
			Meta:   meta("markdown-memory", map[string]any{"key": key, "heading": title, "front_matter": nonEmpty(fm)})}
		recs = append(recs, r)
	}
	return recs, nil
}

// textOnly refuses a file that is not UTF-8 text, naming the line.
func textOnly(f File) error {
	if len(f.Data) > MaxMemoryFileBytes {
		return lineError(f.Name, 0, "%s, over the limit of %s for a memory file", mneme.FormatSize(int64(len(f.Data))), mneme.FormatSize(MaxMemoryFileBytes))
	}
	for i, line := range bytes.Split(f.Data, []byte("\n")) {
		switch {
		case bytes.IndexByte(line, 0) >= 0:
			return lineError(f.Name, i+1, "a NUL byte: this is not a text file")
		case !utf8.Valid(line):
			return lineError(f.Name, i+1, "not valid UTF-8: save the file as UTF-8")
		}
	}
	return nil
}

// sections splits lines at headings outside fenced code: ATX headings
// (# Title) and setext ones (a paragraph underlined with = or -, whose
// lines are the title); offset is the number of lines before them (front
// matter). A --- after a blank line, a list item or code is a thematic
// break, not a heading (CommonMark).
func sections(lines []string, offset int) []section {
	cur := section{start: offset + 1}
	var out []section
	var stack []string // headings by level
	fence := ""
	para := -1 // where the paragraph ending at the last line starts in cur.body, or -1
	heading := func(n, level int, title string) {
		out = append(out, cur)
		stack = append(stack[:min(len(stack), level-1)], make([]string, max(0, level-1-len(stack)))...)
		stack = append(stack, strings.TrimSpace(title))
		cur, para = section{path: compact(stack), start: n, end: n}, -1
	}
	for i, line := range lines {
		n := offset + i + 1
		inFence := fence != ""
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence = m[1][:3]
			case strings.HasPrefix(m[1], fence):
				fence = ""
			}
			inFence = true
		}
		if !inFence {
			if m := headingRE.FindStringSubmatch(line); m != nil {
				heading(n, len(m[1]), m[2])
				continue
			}
			if m := underlineRE.FindStringSubmatch(line); m != nil && para >= 0 {
				first := n - len(cur.body) // the line of cur.body[0]
				title, start := strings.Join(trimAll(cur.body[para:]), " "), first+para
				cur.body = cur.body[:para]
				cur.end = lastText(cur.body, first, cur.start)
				level := 1
				if m[1][0] == '-' {
					level = 2
				}
				heading(start, level, title)
				cur.end = n
				continue
			}
		}
		switch {
		case inFence || strings.TrimSpace(line) == "" || (para < 0 && notParagraph.MatchString(line)):
			para = -1
		case para < 0:
			para = len(cur.body)
		}
		cur.body = append(cur.body, line)
		if strings.TrimSpace(line) != "" { // a section ends at its last line of text
			cur.end = n
		}
	}
	return append(out, cur)
}

// trimAll is lines with their spaces trimmed.
func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// lastText is the line number of body's last line of text, body starting
// at line first; none returns start (the section's heading line).
func lastText(body []string, first, start int) int {
	for i := len(body) - 1; i >= 0; i-- {
		if strings.TrimSpace(body[i]) != "" {
			return first + i
		}
	}
	return start
}

// compact drops the levels a file skipped (# then ###).
func compact(stack []string) []string {
	var out []string
	for _, s := range stack {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// commands reports whether a section is mostly a how-to: a shell block or
// a numbered list.
func commands(body []string) bool {
	for _, l := range body {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```sh") || strings.HasPrefix(t, "```bash") || strings.HasPrefix(t, "```shell") || strings.HasPrefix(t, "$ ") {
			return true
		}
	}
	numbered := 0
	for _, l := range body {
		if t := strings.TrimSpace(l); len(t) > 2 && t[0] >= '1' && t[0] <= '9' && (t[1] == '.' || t[1] == ')') {
			numbered++
		}
	}
	return numbered >= 2
}

// isRuleFile reports whether a file holds rules for the agent as a whole
// (Cursor's, Windsurf's, Cline's, Copilot's instructions).
func isRuleFile(name string) bool {
	base := path.Base(name)
	return strings.HasSuffix(base, ".mdc") || strings.HasPrefix(name, ".cursor/rules/") || strings.Contains(name, "/.cursor/rules/") ||
		base == ".cursorrules" || base == ".windsurfrules" || base == ".clinerules" || base == "copilot-instructions.md"
}

// hostTags tag a record with the file kind and the host that reads it.
func hostTags(name string) []string {
	tags := []string{"markdown-memory"}
	base := path.Base(name)
	switch {
	case strings.HasPrefix(base, "CLAUDE"):
		tags = append(tags, "claude-code")
	case strings.HasPrefix(base, "AGENTS"):
		tags = append(tags, "codex")
	case strings.HasPrefix(base, "GEMINI"):
		tags = append(tags, "gemini")
	case strings.HasSuffix(base, ".mdc") || base == ".cursorrules":
		tags = append(tags, "cursor")
	}
	return tags
}

func clipTitle(s string) string {
	if len(s) <= mneme.MaxTitleBytes {
		return s
	}
	n := mneme.MaxTitleBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func nonEmpty(m map[string]any) any {
	if len(m) == 0 {
		return nil
	}
	return m
}
