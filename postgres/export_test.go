package postgres

import "github.com/mneme-ai/mneme"

// VectorTable names the table holding info's vectors, for tests.
func VectorTable(info mneme.EmbedderInfo) string { return spaceOf(info).table }

// SetSearchLimits sets how many records passing a narrow filter (and what
// share of the store's at most) are scored one by one, how long a posting
// list is read at once and how many records a round of the lexical lane
// settles, and returns a function that restores them.
func SetSearchLimits(exact int, share float64, short int64, settle int) func() {
	e, sr, sh, st := exactBelow, exactShare, shortList, settleBudget
	exactBelow, exactShare, shortList, settleBudget = exact, share, short, settle
	return func() { exactBelow, exactShare, shortList, settleBudget = e, sr, sh, st }
}

// SetVectorExtension makes the store look for pgvector under another name,
// and returns a function that restores it.
func SetVectorExtension(name string) func() {
	old := vectorExtension
	vectorExtension = name
	return func() { vectorExtension = old }
}

// ImpactConstants are the k1·(1 − b) and k1·b / 40 postings_impact orders
// postings with.
func ImpactConstants() (k0, c float64) { return impactK0, impactC }
