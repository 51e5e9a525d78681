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
