package eval

import "testing"

func TestPerturb(t *testing.T) {
	v := Values{Numbers: []string{"14", "3", "41"}, Months: []string{"May", "June"}, Years: []string{"2022", "2023"},
		Weekdays: []string{"Friday", "Monday"}, Names: []string{"Caroline", "Melanie", "Sweden", "Norway"}}
	first := func(int) int { return 0 }
	evidence := "Melanie: We moved to Sweden 3 years ago with Caroline, in May 2023 on a Friday."
	for _, c := range []struct {
		kind, answer, want string
		ok                 bool
	}{
		{PerturbNumber, "They moved 3 years ago", "They moved 14 years ago", true},
		{PerturbNumber, "They moved to Sweden", "", false},
		{PerturbDate, "The Friday before 8 May 2023", "The Friday before 8 June 2023", true},
		{PerturbDate, "In 2023", "In 2022", true},
		{PerturbName, "Melanie moved to Sweden", "Norway moved to Sweden", true}, // the only name the evidence lacks
		{PerturbSwap, "Melanie moved to Sweden", "Caroline moved to Sweden", true},
		{PerturbNegation, "She is moving", "She is not moving", true},
		{PerturbNegation, "Sweden", "Not Sweden", true},
	} {
		got, ok := Perturb(c.kind, c.answer, evidence, v, first)
		if ok != c.ok || got != c.want {
			t.Errorf("%s %q: %q %v, want %q %v", c.kind, c.answer, got, ok, c.want, c.ok)
		}
	}
}
