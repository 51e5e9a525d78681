package postgres

import "github.com/mneme-ai/mneme"

// VectorTable names the table holding info's vectors, for tests.
func VectorTable(info mneme.EmbedderInfo) string { return spaceOf(info).table }

// SetSearchLimits sets how many records passing a narrow filter are
// scored one by one, how long a posting list is read at once and how many
// records a round of the lexical lane settles, and returns a function that
// restores them.
func SetSearchLimits(exact int, short int64, settle int) func() {
	e, sh, st := exactBelow, shortList, settleBudget
	exactBelow, shortList, settleBudget = exact, short, settle
	return func() { exactBelow, shortList, settleBudget = e, sh, st }
}

// SetVectorExtension makes the store look for pgvector under another name,
// and returns a function that restores it.
func SetVectorExtension(name string) func() {
	old := vectorExtension
	vectorExtension = name
	return func() { vectorExtension = old }
}
