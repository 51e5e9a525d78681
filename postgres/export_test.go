package postgres

import "github.com/mneme-ai/mneme"

// VectorTable names the table holding info's vectors, for tests.
func VectorTable(info mneme.EmbedderInfo) string { return spaceOf(info).table }

// SetExactBelow sets how many records passing a narrow filter are scored
// one by one, and returns a function that restores it.
func SetExactBelow(n int) func() {
	old := exactBelow
	exactBelow = n
	return func() { exactBelow = old }
}

// SetVectorExtension makes the store look for pgvector under another name,
// and returns a function that restores it.
func SetVectorExtension(name string) func() {
	old := vectorExtension
	vectorExtension = name
	return func() { vectorExtension = old }
}
