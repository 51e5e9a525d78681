package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/internal/secret"
)

// Bounds of what a capture keeps of a tool call.
const (
	MaxInput   = 400  // bytes of a tool call's input summary
	MaxOutcome = 600  // bytes of its outcome summary
	MaxPrompt  = 8000 // bytes of a prompt
)

// Markers wrap what mneme injects, so that it is recognised (and not
// captured again) when it comes back in a prompt or a tool's output.
const (
	MarkOpen  = "<mneme-context>"
	MarkClose = "</mneme-context>"
)

var (
	privateRe = regexp.MustCompile(`(?is)<private>.*?</private>`)
	openPriv  = regexp.MustCompile(`(?i)<private>`)
	// homePath is a path into a home directory or onto a drive: a capture
	// keeps only its last element (a user name and a machine's layout are
	// not memory; ops refuses them).
	homePath   = regexp.MustCompile(`(?:/home/|/Users/|/root/|~/|[A-Za-z]:\\)[^\s"'<>|;,)\]}` + "`" + `]*`)
	injectedRe = regexp.MustCompile(`(?s)` + regexp.QuoteMeta(MarkOpen) + `.*?` + regexp.QuoteMeta(MarkClose))
)

// Mark wraps text mneme injects.
func Mark(text string) string { return MarkOpen + "\n" + text + "\n" + MarkClose }

// Clean is the text mneme may store of s: private spans and injected
// context removed (an unclosed <private> hides everything after it),
// credentials masked, made valid UTF-8, trimmed.
func Clean(s string) string {
	s = privateRe.ReplaceAllString(s, "")
	if loc := openPriv.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	s = injectedRe.ReplaceAllString(s, "")
	if i := strings.Index(s, MarkOpen); i >= 0 { // cut off mid-package
		s = s[:i]
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = homePath.ReplaceAllStringFunc(s, func(p string) string {
		p = strings.TrimRight(p, `/\`)
		if i := strings.LastIndexAny(p, `/\`); i >= 0 {
			p = p[i+1:]
		}
		return "[home]/" + p
	})
	if found := secret.Scan(s); len(found) > 0 {
		s = secret.Mask(s, found)
	}
	return strings.TrimSpace(s)
}

// Clip bounds s to n bytes on a rune boundary, saying how much was cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 24
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (+%d bytes)", s[:cut], len(s)-cut)
}

// binary reports whether b is not text: invalid UTF-8 or NUL bytes.
func binary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}

// Outcome is the bounded summary of a tool's output: its text (the
// common fields of a JSON result: stdout, stderr, content, output),
// cleaned and clipped; binary output is described, not stored.
func Outcome(out []byte, root string) string {
	if len(out) == 0 {
		return "(no output)"
	}
	if binary(out) {
		return fmt.Sprintf("(binary output, %d bytes)", len(out))
	}
	text := string(out)
	if t := jsonText(out); t != "" {
		text = t
	}
	text = strings.Join(strings.Fields(Clean(relative(text, root))), " ")
	if text == "" {
		return "(no output)"
	}
	return Clip(text, MaxOutcome)
}

// Input is the bounded summary of a tool's input: the field that says
// what the call did (command, file path, pattern, url, query), else the
// compact JSON.
func Input(in json.RawMessage, root string) string {
	var m map[string]any
	text := string(in)
	if json.Unmarshal(in, &m) == nil {
		text = summarizeArgs(m)
	}
	return Clip(strings.Join(strings.Fields(Clean(relative(text, root))), " "), MaxInput)
}

// relative makes the paths under the repository root repo-relative: an
// absolute path never leaves the machine in a capture.
func relative(text, root string) string {
	if root == "" || root == "/" {
		return text
	}
	text = strings.ReplaceAll(text, root+string(filepath.Separator), "")
	return strings.ReplaceAll(text, root, ".")
}

func summarizeArgs(m map[string]any) string {
	var parts []string
	for _, k := range []string{"command", "cmd", "file_path", "path", "notebook_path", "pattern", "url", "query"} {
		if v, ok := m[k]; ok {
			parts = append(parts, scalar(v))
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " ")
	}
	if d, ok := m["description"].(string); ok {
		return d
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func scalar(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = scalar(x)
		}
		return strings.Join(s, " ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonText pulls the readable text out of a JSON tool result.
func jsonText(b []byte) string {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	return fieldsText(m, 2)
}

// fieldsText joins the text fields of m, looking depth objects deep (a
// Read result holds its text in file.content).
func fieldsText(m map[string]any, depth int) string {
	var parts []string
	for _, k := range []string{"stdout", "stderr", "output", "content", "result", "text", "error", "message", "file"} {
		switch v := m[k].(type) {
		case nil:
		case map[string]any:
			if depth > 0 {
				parts = append(parts, fieldsText(v, depth-1))
			}
		default:
			if s := scalar(v); s != "" && s != `""` {
				parts = append(parts, s)
			}
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}
