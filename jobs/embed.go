package jobs

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// EmbedPending is eng.EmbedPending recorded as a run of sync: every
// surface's sync calls it. A sync that cannot start (no embedder, a
// caller that may not run it) is refused without an entry.
func EmbedPending(ctx context.Context, eng *mneme.Engine) (mneme.SyncResult, error) {
	if eng.Embedder() == nil {
		return eng.EmbedPending(ctx) // refused: nothing ran
	}
	return Track(ctx, eng, KindSync, "", eng.EmbedPending, func(r mneme.SyncResult) (map[string]int, string) {
		cursor, _ := eng.SyncCursor(context.WithoutCancel(ctx)) // where a run cut short resumes
		return map[string]int{"embedded": r.Embedded, "pending": r.Pending}, cursor
	})
}

// Reindex is eng.ReindexTo its own embedder, recorded as a run of
// reindex.
func Reindex(ctx context.Context, eng *mneme.Engine, opts mneme.ReindexOptions) (mneme.ReindexResult, error) {
	em := eng.Embedder()
	if em == nil {
		return mneme.ReindexResult{}, mneme.Invalid("no embedder is configured: choose one with --embedder, $MNEME_EMBEDDER or config.json")
	}
	run := func(ctx context.Context) (mneme.ReindexResult, error) { return eng.ReindexTo(ctx, em, opts) }
	return Track(ctx, eng, KindReindex, "", run, func(r mneme.ReindexResult) (map[string]int, string) {
		return map[string]int{"embedded": r.Embedded}, ""
	})
}

// Ingest is eng.Ingest recorded as a run of ingest in o's project.
func Ingest(ctx context.Context, eng *mneme.Engine, files []mneme.SourceFile, o mneme.IngestOptions) (mneme.IngestResult, error) {
	project, err := mneme.ScopeFrom(ctx).Resolve(o.Project)
	if project == "" {
		project = mneme.DefaultProject
	}
	if err == nil {
		err = mneme.ValidateProject(project)
	}
	if err != nil {
		return mneme.IngestResult{}, err
	}
	return Track(ctx, eng, KindIngest, project, func(ctx context.Context) (mneme.IngestResult, error) { return eng.Ingest(ctx, files, o) },
		func(r mneme.IngestResult) (map[string]int, string) {
			return map[string]int{"files": r.Files, "unchanged": r.Unchanged, "removed_documents": r.Removed, "chunks": r.Chunks,
				"inserted": r.Inserted, "updated": r.Updated, "pending_embeddings": r.PendingEmbeddings}, ""
		})
}
