package rank

import "testing"

func TestFirstPerson(t *testing.T) {
	speakers := []string{"Caroline", "Melanie", "Mary Ann"}
	for _, c := range []struct{ q, want string }{
		{"What activities does Melanie partake in?", "What activities does I partake in?"},
		{"What is Caroline's identity?", "What is my identity?"},
		{"What do Melanie’s kids like?", "What do my kids like?"},
		{"When did caroline go to the LGBTQ support group?", "When did I go to the LGBTQ support group?"}, // folded
		{"What did Melanie and Caroline both paint?", "What did I and I both paint?"},
		{"Where did Mary Ann go?", "Where did I go?"},          // a name of two words is one person
		{"What is Mary Ann's job?", "What is my job?"},         // and one possessive
		{"What did Carolines say?", "What did Carolines say?"}, // a longer word is another word
		{"What did Melanies' kids say?", "What did Melanies' kids say?"},
		{"What does the team deploy on Fridays?", "What does the team deploy on Fridays?"}, // no name: as is
		{"", ""},
	} {
		if got := FirstPerson(c.q, speakers); got != c.want {
			t.Errorf("FirstPerson(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	if got := FirstPerson("What is Caroline's identity?", nil); got != "What is Caroline's identity?" {
		t.Errorf("no speakers: %q", got)
	}
}
