// Package rank orders recall's candidates: it fuses what the lexical and
// vector lanes found, adds the boosts of the query's speaker, dates and
// the candidates' sessions, lowers short conversation turns, reranks,
// diversifies (MMR) and picks the words of pseudo-relevance feedback. It
// also words the vector lane's question in the first person of the
// speakers it names (NameCandidates, FirstPerson).
//
// Everything here is a pure function over candidates; the Engine (package
// mneme) does the I/O (store calls, embedding) and calls it. Every tunable
// is a field of Profile, with its default and where it was measured.
package rank
