package textnorm

import (
	"reflect"
	"testing"
)

func TestNormalizeAndHash(t *testing.T) {
	cases := map[string]string{
		"  a  b\n\tc ":         "a b c",
		"Cafe\u0301":           "Caf\u00e9", // NFD to NFC
		"\u00a0x\u2003y\u00a0": "x y",       // Unicode spaces collapse
		"":                     "",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if Hash("a  b") != Hash("a b\n") || Hash("a b") == Hash("a c") || len(Hash("x")) != 64 {
		t.Fatal("Hash does not follow Normalize")
	}
}

func TestTerms(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"How do we release the Café build?", []string{"release", "cafe", "build"}},
		{"the the who", []string{"the", "who"}}, // only stopwords: keep them
		{"deploy, deploy; DEPLOY", []string{"deploy"}},
		{"v2.3 rollout_plan", []string{"v2", "3", "rollout", "plan"}},
		{"?!", nil},
		{"日本語 テキスト", []string{"日本語", "テキスト"}},
	}
	for _, c := range cases {
		if got := Terms(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"deploy, deploy; DEPLOY the build", []string{"deploy", "deploy", "deploy", "build"}}, // query frequency kept
		{"the the who", []string{"the", "the", "who"}},
		{"?!", nil},
	}
	for _, c := range cases {
		if got := QueryTerms(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("QueryTerms(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCountWords(t *testing.T) {
	for _, c := range []struct {
		s           string
		limit, want int
	}{
		{"", 10, 0},
		{"  ,;  ", 10, 0},
		{"Caroline: Wow! Did you see that band?", 80, 7},
		{"café au lait, 2 cups", 80, 5},
		{"one two three four", 2, 2},
		{"one two", 0, 0},
	} {
		if got := CountWords(c.s, c.limit); got != c.want {
			t.Errorf("CountWords(%q, %d) = %d, want %d", c.s, c.limit, got, c.want)
		}
		if c.limit >= 80 && len(Words(c.s)) != c.want {
			t.Errorf("CountWords(%q) disagrees with Words: %d words", c.s, len(Words(c.s)))
		}
	}
}
