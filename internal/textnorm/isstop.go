package textnorm

// IsStopword reports whether a folded word is an English stopword.
func IsStopword(w string) bool { return stopwords[w] }
