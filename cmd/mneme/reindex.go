package main

import (
	"context"
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["reindex"] = command{
		usage:   "reindex [--embedder NAME]",
		summary: "re-embed every memory with the configured embedder (after changing it) and rebuild the indexes",
		run:     runReindex,
	}
}

func runReindex(a *app, args []string) error {
	reindex := func(eng *mneme.Engine, ctx context.Context) (mneme.ReindexResult, error) {
		if eng.Embedder() == nil {
			return mneme.ReindexResult{}, mneme.Invalid("no embedder is configured: choose one with --embedder, $MNEME_EMBEDDER or config.json")
		}
		return jobs.Reindex(ctx, eng)
	}
	return embedJob(a, args, reindex, func(res mneme.ReindexResult) bool { return res.Embedder.Dim > 0 },
		func(res mneme.ReindexResult) string {
			return fmt.Sprintf("embedded %s with %s (%d dimensions)", mneme.Plural(res.Embedded, "memory", "memories"), res.Embedder.ID(), res.Embedder.Dim)
		})
}
