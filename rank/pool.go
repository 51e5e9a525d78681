package rank

// UsualPool is how many candidates each lane returns for a query of k hits
// that fusion and reshaping choose among: max(4k, 50), at most most. A
// filter that leaves fewer records than that has left few. A question
// that names a time adds the candidates of that time (see Window) instead
// of searching deeper.
func UsualPool(k, most int) int { return min(most, max(4*k, 50)) }
