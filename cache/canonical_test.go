package cache_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mneme-ai/mneme/cache"
)

// TestCanonicalJSON: key order, spacing and number formatting never
// change the canonical form, so they never change a hash.
func TestCanonicalJSON(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{`{"b":1,"a":[true,null]}`, `{ "a" : [ true , null ], "b" : 1 }`}, `{"a":[true,null],"b":1}`},
		{[]string{`[1.0]`, `[1]`, `[1e0]`, `[10E-1]`, `[1.000]`}, `[1]`},
		{[]string{`[0.10]`, `[1e-1]`, `[0.1]`}, `[0.1]`},
		{[]string{`[-0]`, `[-0.0]`, `[0e5]`}, `[0]`},
		{[]string{`[1e21]`, `[1000000000000000000000.0]`}, `[1e+21]`},
		{[]string{`[12345678901234567890123]`}, `[12345678901234567890123]`}, // an integer keeps every digit
		{[]string{`["<a&b>\u00e9\n\"\\\u0001"]`, `["<a&b>é\n\"\\\u0001"]`}, `["<a&b>é\n\"\\\u0001"]`},
		{[]string{`{"z":{"y":2,"x":1}}`}, `{"z":{"x":1,"y":2}}`},
	} {
		for _, in := range c.in {
			got, err := cache.CanonicalJSON([]byte(in))
			if err != nil || string(got) != c.want {
				t.Errorf("CanonicalJSON(%s) = %s, %v; want %s", in, got, err, c.want)
			}
		}
	}
	if h1, h2 := hashOf(t, map[string]float64{"a": 0.5, "b": 2}), hashOf(t, struct {
		B float64 `json:"b"`
		A float64 `json:"a"`
	}{2, 0.5}); h1 != h2 {
		t.Fatalf("a map and a struct of the same fields hash apart: %s %s", h1, h2)
	}
}

func hashOf(t *testing.T, v any) string {
	b, err := cache.Canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	return cache.Hash(b)
}

// FuzzCanonicalJSON: the canonical form of any JSON text is JSON that
// means the same, and is its own canonical form.
func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":2}`, `[1.0,-0,1e300,"\u2028"]`, `"x"`, `{"a":{"b":[{}]}}`, `123456789012345678901234567890`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var want any
		if json.Unmarshal(in, &want) != nil {
			return
		}
		got, err := cache.CanonicalJSON(in)
		if err != nil {
			return // a number float64 cannot hold
		}
		var back any
		if err := json.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, want) {
			t.Fatalf("%s → %s (%v): means %v, want %v", in, got, err, back, want)
		}
		again, err := cache.CanonicalJSON(got)
		if err != nil || string(again) != string(got) {
			t.Fatalf("not idempotent: %s → %s", got, again)
		}
	})
}
