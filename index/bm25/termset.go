package bm25

// TermSet is a set of a query's terms, by their index among its distinct
// terms: a query may have any number of them (a whole document asked
// with), so a set grows past one word as needed.
type TermSet []uint64

// Add puts term i in the set.
func (s *TermSet) Add(i int) {
	for len(*s) <= i/64 {
		*s = append(*s, 0)
	}
	(*s)[i/64] |= 1 << (i % 64)
}

// Has reports whether term i is in the set.
func (s TermSet) Has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

// Empty reports whether the set holds no term.
func (s TermSet) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// AddAll puts every term of o in the set.
func (s *TermSet) AddAll(o TermSet) {
	for len(*s) < len(o) {
		*s = append(*s, 0)
	}
	for i, w := range o {
		(*s)[i] |= w
	}
}

// Full returns the set of the terms 0..n-1.
func Full(n int) TermSet {
	s := make(TermSet, (n+63)/64)
	for i := range s {
		s[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		s[len(s)-1] = 1<<r - 1
	}
	return s
}

// Covers reports whether the union of s and o holds every term of all.
func (s TermSet) Covers(o, all TermSet) bool {
	for i, w := range all {
		if w&^(word(s, i)|word(o, i)) != 0 {
			return false
		}
	}
	return true
}

func word(s TermSet, i int) uint64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}
