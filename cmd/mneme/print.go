package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// What the CLI prints for people goes to a terminal, which obeys escape
// sequences: a stored memory (or a path in a message) holding ESC could
// retitle the window, rewrite the screen or hide text. So text output
// shows control characters escaped, visibly, in Go's notation: C0 controls
// and DEL as \x1b, C1 controls and the bidirectional formatting
// characters (which reorder what is shown, as in "Trojan Source") as
// \u202e, bytes that are not UTF-8 as \xff. Newline and tab are kept where
// text runs over several lines (a record's text, a message), with CR
// before a newline; one-line fields escape them too. --json output is
// exact: JSON escapes control characters itself.

// oneLine is s escaped for a one-line field (a title, a key, a source).
func oneLine(s string) string { return escape(s, false) }

// block is s escaped for text shown over several lines (a record's text,
// a message): newlines and tabs are kept.
func block(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case lines && (r == '\n' || r == '\t' || (r == '\r' && strings.HasPrefix(s[i+1:], "\n"))):
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune: the C1 controls and the bidirectional formatting characters.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// Warning codes: what a warning is about, for programs reading --json.
const (
	WDEGRADED = "WDEGRADED" // a recall ran without a lane (vectors, the hypothesis) and says why
	WMODELDIR = "WMODELDIR" // the model was fetched where mneme does not look for it
	WKEPT     = "WKEPT"     // a temporary data directory was kept
	WPENDING  = "WPENDING"  // a write stored memories without a vector, pending embedding
	WINDEX    = "WINDEX"    // the store rebuilds an index whose snapshot it could not read (or could not save one)
)

// warn tells the user something on standard error that is not an error:
// with --json as one line {"warning":{"code":…,"message":…}}, else as
// "note: …", escaped. The same warning is given once per process (a batch
// recall degrades the same way on every line).
func (a *app) warn(code, msg string) {
	key := code + "\x00" + msg
	a.warnMu.Lock() // the store warns from its own goroutines too (noteHandler)
	defer a.warnMu.Unlock()
	if a.warned[key] {
		return
	}
	if a.warned == nil {
		a.warned = map[string]bool{}
	}
	a.warned[key] = true
	if a.json {
		b, _ := json.Marshal(map[string]any{"warning": map[string]string{"code": code, "message": msg}})
		fmt.Fprintln(a.stderr, string(b))
		return
	}
	fmt.Fprintln(a.stderr, "note:", block(msg))
}
