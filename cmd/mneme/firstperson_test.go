package main_test

import (
	"strings"
	"testing"
)

// TestRecallFirstPerson: through the real binary, the vector lane asks the
// question as the speaker it names would (vector_query in JSON, a line of
// --explain), not for a speaker only a secret record has, and not under a
// profile with first_person false.
func TestRecallFirstPerson(t *testing.T) {
	home := cacheHome(t, `,"ranking":{"profiles":{"plain":{"first_person":false}}}`)
	ok(t, home, "remember", "--speaker", "Melanie", "--session", "s1", "I play the violin and the clarinet")
	ok(t, home, "remember", "--speaker", "Zed", "--session", "s1", "--sensitivity", "secret", "the vault code is in the drawer")
	type reply struct {
		VectorQuery string `json:"vector_query"`
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"recall", "What instruments does Melanie play?", "--json"}, "What instruments does I play?"},
		{[]string{"recall", "What instruments does Melanie play?", "--json", "--profile", "plain"}, ""},
		{[]string{"recall", "Where does Zed keep the code?", "--json"}, ""},
	} {
		if got := decode[reply](t, ok(t, home, tc.args...)).VectorQuery; got != tc.want {
			t.Errorf("%q: vector_query %q, want %q", tc.args, got, tc.want)
		}
	}
	out := ok(t, home, "recall", "What instruments does Melanie play?", "--explain")
	if !strings.Contains(out, `(the vector lane searched for "What instruments does I play?"`) {
		t.Errorf("--explain does not say what the vector lane searched for:\n%s", out)
	}
}
