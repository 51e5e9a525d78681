package codemem

import (
	"bytes"
	"context"
	"encoding/hex"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/walk"
	"github.com/mneme-ai/mneme/jobs"
)

// IndexResult counts what Index did to the repository's records.
type IndexResult struct {
	Project  string `json:"project"`
	Files    int    `json:"files"`   // files embedded (new or changed)
	Chunks   int    `json:"chunks"`  // chunks inserted or updated
	Removed  int    `json:"removed"` // documents of deleted files forgotten
	Deleted  int    `json:"deleted_chunks"`
	Problems int    `json:"skipped_files,omitempty"` // unreadable or refused files
}

// indexBatch is how many files one Ingest call takes: a bounded amount of
// text in memory, and progress that survives an interruption.
const indexBatch = 100

// Index keeps the repository's code records current: each record's project
// is the repository id, its source the repo-relative path and line range.
// A file is read and embedded when its content differs from what its
// stored document was made of (the document keeps the sha256 of the
// content indexed, the entry that of the content scanned), so whatever an
// earlier command left behind (no --index, or a crash between writing the
// artifact and storing the records) is caught up, whatever the delta says.
// Documents of files no longer in the repository are forgotten.
//
// progress, when not nil, hears done of total files to read and embed
// after each batch (first with done 0): indexing a repository can take
// minutes.
func Index(ctx context.Context, eng *mneme.Engine, env *Envelope, progress func(done, total int)) (IndexResult, error) {
	res := IndexResult{Project: env.ProjectID}
	if !mneme.ScopeFrom(ctx).Covers(env.ProjectID) {
		return res, mneme.Errorf(mneme.EFORBIDDEN, "the caller's scope does not cover project %s", env.ProjectID)
	}
	run, err := jobs.Start(ctx, eng, jobs.KindCode, env.ProjectID)
	if err != nil {
		return res, err
	}
	cursor := ""
	if progress == nil {
		progress = func(int, int) {}
	}
	err = index(ctx, eng, env, &res, func(path string) { cursor = path; run.Progress(res.counts(), path) }, progress)
	if err == nil {
		cursor = "" // a run that ended has nothing to resume
	}
	if ferr := run.Finish(ctx, res.counts(), cursor, err); err == nil {
		err = ferr
	}
	return res, err
}

// counts are res as the job ledger keeps it.
func (res *IndexResult) counts() map[string]int {
	return map[string]int{"files": res.Files, "chunks": res.Chunks, "removed": res.Removed, "deleted_chunks": res.Deleted, "skipped_files": res.Problems}
}

// index does Index's work, calling done with the path of the last file
// of each batch stored (where a run cut short has got to), and progress
// with the files read of those stale.
func index(ctx context.Context, eng *mneme.Engine, env *Envelope, res *IndexResult, done func(path string), progress func(done, total int)) error {
	docs, err := eng.Store().Documents(ctx, env.ProjectID, "")
	if err != nil {
		return err
	}
	stored := make(map[string]string, len(docs)) // path → sha256 of the content indexed
	for _, d := range docs {
		stored[d.URI] = d.Hash
	}
	seen := make(map[string]bool, len(env.entries))
	var stale []Entry
	for _, e := range env.entries {
		seen[e.Path] = true
		if e.Size > 0 && stored[e.Path] != hex.EncodeToString(e.SHA256[:]) {
			stale = append(stale, e)
		}
	}
	progress(0, len(stale))
	var todo []mneme.SourceFile
	flush := func() error {
		if len(todo) == 0 {
			return nil
		}
		err := ingest(ctx, eng, env.ProjectID, todo, res)
		if mneme.ErrorCode(err) == mneme.EINVALID { // one bad file refuses the batch: take them one by one
			for _, f := range todo {
				if ingest(ctx, eng, env.ProjectID, []mneme.SourceFile{f}, res) != nil {
					res.Problems++
				}
			}
			err = nil
		}
		if err == nil {
			done(todo[len(todo)-1].URI)
		}
		todo = todo[:0]
		return err
	}
	for i, e := range stale {
		data, _, err := walk.ReadFile(env.ProjectRoot, e.Path, maxFileSize)
		switch {
		case err != nil:
			res.Problems++ // gone, or no longer a regular file, since the scan
		case len(bytes.TrimSpace(data)) > 0:
			todo = append(todo, mneme.SourceFile{URI: e.Path, Data: data})
		}
		if len(todo) == indexBatch || i == len(stale)-1 {
			if err := flush(); err != nil {
				return err
			}
			progress(i+1, len(stale))
		}
	}
	removed, deleted, err := eng.Sync(ctx, env.ProjectID, []string{""}, seen)
	res.Removed, res.Deleted = removed, res.Deleted+deleted
	return err
}

func ingest(ctx context.Context, eng *mneme.Engine, project string, files []mneme.SourceFile, res *IndexResult) error {
	w, err := eng.Ingest(ctx, files, mneme.IngestOptions{Project: project, Redact: true, Tags: []string{"code"}})
	if err == nil {
		res.Files += len(files) - w.Unchanged
		res.Chunks += w.Inserted + w.Updated
		res.Deleted += w.Deleted
	}
	return err
}
