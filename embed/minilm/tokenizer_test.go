package minilm

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// ids maps expected token strings to ids through tokenizer.json's vocab,
// failing if a token is not in it.
func ids(t *testing.T, m *Model, toks ...string) []int32 {
	t.Helper()
	out := make([]int32, 0, len(toks)+2)
	out = append(out, m.tok.cls)
	for _, tok := range toks {
		id, ok := m.tok.first[tok]
		if !ok {
			t.Fatalf("test token %q not in vocabulary", tok)
		}
		out = append(out, id)
	}
	return append(out, m.tok.sep)
}

func TestTokenize(t *testing.T) {
	m := testModel(t)
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", nil},
		{"blank", " \t\n ", nil},
		{"basic", "Hello, World!", []string{"hello", ",", "world", "!"}},
		{"accents", "Café naïve RÉSUMÉ", []string{"cafe", "naive", "resume"}},
		{"combining mark", "na\u0308ive", []string{"naive"}},
		{"dotted capital I", "İstanbul", []string{"istanbul"}},
		{"wordpiece", "unaffable ÅNGSTRÖM", []string{"una", "##ffa", "##ble", "ang", "##strom"}},
		{"ascii punct", "$100+ don't a|b~c", []string{"$", "100", "+", "don", "'", "t", "a", "|", "b", "~", "c"}},
		{"unicode punct", "hello—world «quote»", []string{"hello", "—", "world", "«", "quote", "»"}},
		{"cjk split", "北京大学", []string{"北", "京", "大", "学"}},
		{"cjk in word", "abc京def", []string{"abc", "京", "def"}},
		{"cjk punct", "「東京」", []string{"「", "東", "京", "」"}},
		{"hangul decomposes", "각", []string{"ᄀ", "##ᅡ", "##ᆨ"}},
		{"unknown char", "☃", []string{"[UNK]"}},
		{"unknown piece makes word unk", "snow☃man ok", []string{"[UNK]", "ok"}},
		{"emoji", "emoji👍🏽ok", []string{"[UNK]"}},
		{"unknown cjk", "爱", []string{"[UNK]"}},
		{"controls dropped", "a\x00b\u200bc\x7fd\ufffde\x0bf", []string{"abc", "##de", "##f"}},
		{"unicode whitespace", "a\u00a0b\u3000c\u2028d", []string{"a", "b", "c", "d"}},
		{"greek sigma", "ΣΊΣ", []string{"σ", "##ι", "##σ"}},
		{"invalid utf8", "x\xffy", []string{"x", "##y"}},
		{"special tokens are text", "[CLS]", []string{"[", "cl", "##s", "]"}},
		{"100 chars", strings.Repeat("a", 100), nil}, // checked below
		{"101 chars", strings.Repeat("a", 101) + " b", []string{"[UNK]", "b"}},
		{"101 runes", strings.Repeat("é", 101), []string{"[UNK]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := m.Tokenize(tc.text)
			if tc.name == "100 chars" {
				if len(got) < 3 || slices.Contains(got, m.tok.unk) {
					t.Errorf("100-char word should be WordPiece-split, got %v", got)
				}
				return
			}
			if want := ids(t, m, tc.want...); !slices.Equal(got, want) {
				t.Errorf("Tokenize(%q) = %v, want %v (%q)", tc.text, got, want, tc.want)
			}
		})
	}
}

func TestTokenizeTruncation(t *testing.T) {
	m := testModel(t)
	word := m.tok.first["word"]
	for _, n := range []int{253, 254, 255, 400} {
		got := m.Tokenize(strings.Repeat("word ", n))
		wantLen := min(n, maxTokens-2) + 2
		if len(got) != wantLen || got[0] != m.tok.cls || got[len(got)-1] != m.tok.sep {
			t.Fatalf("%d words: %d tokens, want %d framed by [CLS]/[SEP]", n, len(got), wantLen)
		}
		for _, id := range got[1 : len(got)-1] {
			if id != word {
				t.Fatalf("%d words: unexpected id %d", n, id)
			}
		}
	}
	// Truncation may cut inside a word's pieces, as the reference does.
	got := m.Tokenize(strings.Repeat("a ", 253) + "unaffable")
	want := ids(t, m, append(slices.Repeat([]string{"a"}, 253), "una")...)
	if !slices.Equal(got, want) {
		t.Errorf("cut inside a word: got tail %v, want %v", got[250:], want[250:])
	}
	// A huge input is cheap: reading stops once the budget is full.
	if got := m.Tokenize(strings.Repeat("memory ", 1<<20)); len(got) != maxTokens {
		t.Errorf("huge input: %d tokens", len(got))
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "Hello, World!", "Café 北京 ☃ na\u0308ive", "\x00\xff\ufffd", strings.Repeat("ab ", 300), strings.Repeat("x", 120)} {
		f.Add(s)
	}
	m := testModel(f)
	f.Fuzz(func(t *testing.T, s string) {
		got := m.Tokenize(s)
		if len(got) < 2 || len(got) > maxTokens || got[0] != m.tok.cls || got[len(got)-1] != m.tok.sep {
			t.Fatalf("Tokenize(%q) = %v: bad framing or length", s, got)
		}
		for _, id := range got {
			if id < 0 || int(id) >= vocabSize {
				t.Fatalf("Tokenize(%q): id %d outside vocabulary", s, id)
			}
		}
		if utf8.ValidString(s) && strings.TrimSpace(s) == "" && len(got) != 2 {
			t.Fatalf("Tokenize(%q) = %v for blank text", s, got)
		}
	})
}
