package vault

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseFile: any input is parsed or refused with a line, never a panic.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"---\nid: x\ntags:\n  - a\n  - \"b\\u00e9\"\nsource:\n  uri: u\n---\n\n# T\n\ntext\n",
		"---\ntags: [a, 'b''c', \"d\"]\nmeta: {\"a\":1}\n---\ntext",
		"# only a heading\n\nand text",
		"---\nkey: \"\\x\"\n---\n", "---\n- a\n---\n", "---\nk:\n  - a\n  b: c\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseFile(s)
		if err == nil && p.rec == nil {
			t.Fatal("no record and no error")
		}
		if le, ok := err.(*lineError); ok && (le.Line < 1 || le.Line > strings.Count(s, "\n")+2) {
			t.Fatalf("error at line %d of a %d-line input", le.Line, strings.Count(s, "\n")+1)
		}
	})
}

// FuzzQuote: every string the writer quotes reads back as itself.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"plain", "a: b", "#x", "true", "12", " lead", "\"q\"\\", "tab\there", "\u2028", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, '\ufffd') {
			return // invalid UTF-8 never reaches the writer
		}
		fields, err := parseFrontMatter([]string{"k: " + quote(s)}, 1)
		if err != nil {
			t.Fatalf("quote(%q) = %s: %v", s, quote(s), err)
		}
		if got := fields[0].Scalar; got != s && !(s == "" && fields[0].Kind == kindScalar) {
			t.Fatalf("quote(%q) = %s reads back as %q", s, quote(s), got)
		}
	})
}

// TestPlainSafe: a value is written bare only when YAML reads it back as
// the same string (not a number, a boolean or null).
func TestPlainSafe(t *testing.T) {
	for v, want := range map[string]bool{
		"note": true, "Info": true, "none": true, "v1.2": true, "a: b": false,
		"12": false, "1e5": false, "0x1p-2": false, "Inf": false, "nan": false, "NaN": false,
		"No": false, "TRUE": false, "null": false, "y": false, "12abc": true, "": false, "-1": false, "Infinity": false, "1_000": false, "2026-06-01T12:00:00Z": true,
	} {
		if got := plainSafe(v); got != want {
			t.Errorf("plainSafe(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestManifestLine: a manifest line is what encoding/json writes.
func TestManifestLine(t *testing.T) {
	for _, f := range []ManifestFile{
		{Path: "p/semantic/note/a-1234.md", ID: "01J", SHA256: "ab"},
		{Path: "p/x.md", ID: "01J", SHA256: "ab", Missing: true},
		{Path: "p/x.md", ID: "01J", SHA256: "ab", Stamp: "cd"},
		{Path: "p/x.md", ID: "01J", SHA256: "ab", Stamp: "cd", Missing: true},
		{Path: "p/é \"q\" <b>&\\.md", ID: "01J", SHA256: "ab"},
		{Path: "p/\x01.md"},
	} {
		want, _ := json.Marshal(f)
		if got := f.line(); string(got) != string(want) {
			t.Errorf("line = %s, want %s", got, want)
		}
	}
}
