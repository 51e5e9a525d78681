package rank

import (
	"slices"
	"strings"
	"testing"
)

func TestNameCandidates(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"What instruments does Melanie play?", []string{"Melanie"}},
		{"What is Caroline's identity?", []string{"Caroline"}},
		{"Caroline's kids like what?", []string{"Caroline"}},                                                  // first, with a possessive
		{"Describe the trip to the lake.", nil},                                                               // a sentence's first word alone
		{"When did Melanie and Caroline paint?", []string{"Melanie", "Caroline"}},                             // "When" is a stopword
		{"Where did Mary Ann Lee go?", []string{"Mary", "Mary Ann", "Mary Ann Lee", "Ann", "Ann Lee", "Lee"}}, // runs of up to 3
		{"Mary Ann went where?", []string{"Ann"}},                                                             // the first word of a sentence is no name
		{"Did Nate, Joanna go?", []string{"Nate", "Joanna"}},                                                  // a comma ends a run
		{"Ask Tim. Gina said?", []string{"Tim"}},                                                              // a new sentence
		{"what did caroline say?", nil},                                                                       // no capital, no candidate
		{"Who is Émile's friend?", []string{"Émile"}},                                                         // not only ASCII
		{"What did Nate do in May 2022?", []string{"Nate", "May"}},
		{"", nil},
	} {
		if got := NameCandidates(c.q, 8); !slices.Equal(got, c.want) {
			t.Errorf("NameCandidates(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	long := "Why " + strings.Repeat("Alice Bob Carol Dave ", 1000) + "?"
	if got := NameCandidates(long, 8); len(got) != 8 {
		t.Errorf("a long query gives %d candidates, want the bound 8", len(got))
	}
}

// FuzzNameCandidates: any query gives at most max candidates, each words
// of the query as written (a capitalised word that is no stopword, or a
// run of up to three), and FirstPerson with them never panics.
func FuzzNameCandidates(f *testing.F) {
	for _, s := range []string{"What does Melanie play?", "Mary Ann Lee's dog. Ask Tim", "Émile's", "A B C D E F G H I J", "\xff Zoë 's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := NameCandidates(q, 8)
		if len(got) > 8 {
			t.Fatalf("%d candidates", len(got))
		}
		for _, c := range got {
			words := strings.Split(c, " ")
			if !strings.Contains(q, c) || len(words) > maxNameWords {
				t.Fatalf("candidate %q is not a run of up to %d words of %q", c, maxNameWords, q)
			}
			for _, w := range words {
				if !nameLike(w) {
					t.Fatalf("candidate %q has a word %q that is no name", c, w)
				}
			}
		}
		FirstPerson(q, got)
	})
}
