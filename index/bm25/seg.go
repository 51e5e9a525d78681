package bm25

// seg is a per-document array that may have been loaded as a view of a
// snapshot's bytes: appending to a view (capacity equal to length) would
// copy all of it, and a process that loads 100,000 documents to catch up
// on a session's three copied 7 MB of attributes to add them. So what is
// appended to a view goes to a second part.
type seg[T any] struct {
	base, more []T
	view       bool // base is loaded bytes: never appended to
}

// load makes s a view of v.
func (s *seg[T]) load(v []T) { *s = seg[T]{base: v, view: true} }

func (s *seg[T]) len() int { return len(s.base) + len(s.more) }

// at is element i.
func (s *seg[T]) at(i int) *T {
	if i < len(s.base) {
		return &s.base[i]
	}
	return &s.more[i-len(s.base)]
}

// span is the n elements from off, which were appended together, so lie
// in one part.
func (s *seg[T]) span(off, n uint32) []T {
	if int(off) < len(s.base) {
		return s.base[off : off+n]
	}
	off -= uint32(len(s.base))
	return s.more[off : off+n]
}

// add appends vs.
func (s *seg[T]) add(vs ...T) {
	if s.view {
		s.more = append(s.more, vs...)
	} else {
		s.base = append(s.base, vs...)
	}
}
