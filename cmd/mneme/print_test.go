package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, line, block string }{
		{"plain text, ünïcode ✓", "plain text, ünïcode ✓", "plain text, ünïcode ✓"},
		{"red \x1b[31malert\x1b[0m", `red \x1b[31malert\x1b[0m`, `red \x1b[31malert\x1b[0m`},
		{"title \x1b]0;pwned\x07", `title \x1b]0;pwned\x07`, `title \x1b]0;pwned\x07`},
		{"two\nlines\tand a tab", `two\x0alines\x09and a tab`, "two\nlines\tand a tab"},
		{"crlf\r\nline", `crlf\x0d\x0aline`, "crlf\r\nline"},
		{"overwrite\rthis", `overwrite\x0dthis`, `overwrite\x0dthis`},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`, `nul\x00 del\x7f`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`, `c1 \u009b31m csi`},
		{"bidi \u202eevil\u202c \u2066x\u2069", `bidi \u202eevil\u202c \u2066x\u2069`, `bidi \u202eevil\u202c \u2066x\u2069`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{`a literal \x1b stays`, `a literal \x1b stays`, `a literal \x1b stays`},
	} {
		if got := oneLine(c.in); got != c.line {
			t.Errorf("oneLine(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := block(c.in); got != c.block {
			t.Errorf("block(%q) = %q, want %q", c.in, got, c.block)
		}
	}
}

func TestWarn(t *testing.T) {
	var human, machine bytes.Buffer
	h := &app{stderr: &human}
	m := &app{stderr: &machine, json: true}
	for range 2 { // the same warning is given once
		h.warn(WDEGRADED, "recalled by words \x1b[2J alone")
		m.warn(WDEGRADED, "recalled by words \x1b[2J alone")
	}
	if got := human.String(); got != "note: recalled by words \\x1b[2J alone\n" {
		t.Errorf("human warning %q", got)
	}
	if got := machine.String(); got != `{"warning":{"code":"WDEGRADED","message":"recalled by words \u001b[2J alone"}}`+"\n" {
		t.Errorf("JSON warning %q", got)
	}
	if strings.Contains(human.String()+machine.String(), "\x1b") {
		t.Error("a raw ESC reached standard error")
	}
}
