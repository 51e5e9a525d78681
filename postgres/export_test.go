package postgres

import "github.com/mneme-ai/mneme"

// VectorTable names the table holding info's vectors, for tests.
func VectorTable(info mneme.EmbedderInfo) string { return spaceOf(info).table }
