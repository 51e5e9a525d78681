package mneme

import (
	"regexp"
	"testing"
)

// idForm is the id's form as a regular expression, the reference
// ValidID's hand-written check must agree with.
var idForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func FuzzValidID(f *testing.F) {
	for _, s := range []string{"019e830e-1a00-724b-94a5-a9bb1d130382", "019E830E-1A00-724B-94A5-A9BB1D130382",
		"019e830e-1a00-724b-94a5-a9bb1d13038", "019e830e-1a00-724b-94a5-a9bb1d1303822", "019e830e_1a00-724b-94a5-a9bb1d130382",
		"019e830e-1a00-724b-94a5-a9bb1d13038g", "", "../../../etc/passwd-aaaaaaaaaaaaaaaa", "019e830e-1a00-724b-94a5-a9bb1d13038\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidID(s), idForm.MatchString(s); got != want {
			t.Fatalf("ValidID(%q) = %v, the form says %v", s, got, want)
		}
	})
}
