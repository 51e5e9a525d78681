package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/relpath"
	"github.com/mneme-ai/mneme/internal/walk"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["ingest"] = command{
		usage:   "ingest PATH… [flags]",
		summary: "chunk and store Markdown, text and source files (directories respect .gitignore)",
		run:     runIngest,
	}
}

type ingestOutput struct {
	mneme.IngestResult
	SkippedFiles []walk.Skip `json:"skipped_files"`
	rated                    // records: chunks written or found unchanged
}

func runIngest(a *app, args []string) error {
	fs := a.flags()
	var o mneme.IngestOptions
	var tags listFlag
	var sens string
	fs.StringVar(&o.Project, "project", mneme.DefaultProject, "project the chunks belong to")
	fs.Var(&tags, "tags", "tags for every chunk, comma-separated")
	fs.StringVar(&sens, "sensitivity", "internal", "public, internal or secret")
	fs.BoolVar(&o.Redact, "redact", false, "mask credentials found in files, their paths or --tags instead of refusing")
	fs.BoolVar(&o.RequireEmbedding, "require-embedding", false, requireEmbeddingUsage)
	fs.IntVar(&o.MaxTokens, "chunk-tokens", 400, "target chunk size in tokens")
	fs.IntVar(&o.OverlapTokens, "overlap", -1, "tokens repeated between neighbouring chunks (default 1/8 of --chunk-tokens, at most 50; 0 for none)")
	fs.BoolVar(&o.Force, "force", false, "chunk and store every file again, even those stored unchanged")
	sync := fs.Bool("sync", false, "also forget files under the given directories that no longer exist")
	maxSize := fs.Int64("max-file-size", 10<<20, "skip files larger than this many bytes")
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return mneme.Invalid("no paths given: mneme ingest docs/ README.md")
	}
	switch o.OverlapTokens { // the engine reads 0 as "default" and negative as "none"
	case -1:
		o.OverlapTokens = 0
	case 0:
		o.OverlapTokens = -1
	}
	o.Tags, o.Sensitivity = tags, mneme.Sensitivity(sens)
	if _, err := mneme.ParseSensitivity(sens); err != nil {
		return err
	}
	files, skipped, err := walk.Files(pos, walk.Options{MaxFileSize: *maxSize})
	if err != nil {
		return mneme.Invalid("%v", err)
	}
	sources := make([]mneme.SourceFile, 0, len(files))
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		data, _, err := f.Read(*maxSize) // no link followed, nothing but a regular file: the walk's file
		if err != nil {
			skipped = append(skipped, walk.Skip{Path: f.Path, Reason: "unreadable"})
			continue
		}
		uri := relpath.Source(f.Path, f.Root) // stored relative: no home directory in memory
		sources = append(sources, mneme.SourceFile{URI: uri, Data: data})
		seen[uri] = true
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	start := time.Now()
	res, err := jobs.Ingest(a.ctx, eng, sources, o)
	if err != nil {
		return err
	}
	if *sync {
		if res.Removed, res.Deleted, err = a.syncRemoved(eng, o.Project, pos, seen, res.Deleted); err != nil {
			return err
		}
	}
	if skipped == nil {
		skipped = []walk.Skip{}
	}
	a.notePending(res.WriteResult)
	if a.json {
		return a.printJSON(ingestOutput{IngestResult: res, SkippedFiles: skipped,
			rated: rateSince(res.Inserted+res.Updated+res.SkippedDuplicates, start)})
	}
	a.noteAll(walk.IgnoreNotes("", skipped))
	fmt.Fprintf(a.stdout, "%s: %d unchanged, %s inserted, %d updated, %d deleted, %d duplicate; %s skipped",
		mneme.Plural(res.Files, "file", "files"), res.Unchanged, mneme.Plural(res.Inserted, "chunk", "chunks"), res.Updated, res.Deleted, res.SkippedDuplicates,
		mneme.Plural(len(skipped), "file", "files"))
	if *sync {
		fmt.Fprintf(a.stdout, "; %d removed files forgotten", res.Removed)
	}
	fmt.Fprintln(a.stdout)
	return nil
}

// syncRemoved forgets documents under the directory arguments that the walk
// did not see.
func (a *app) syncRemoved(eng *mneme.Engine, project string, paths []string, seen map[string]bool, deleted int) (int, int, error) {
	var prefixes []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return 0, deleted, mneme.Invalid("%s: %v", p, err)
		}
		if st, err := os.Stat(abs); err == nil && st.IsDir() { // the stored form of the directory (see relpath.Source)
			prefix := relpath.Source(abs, abs) + "/"
			if root, ok := relpath.RepoRoot(abs); ok && root == abs {
				prefix = "" // the repository's root: every document of it
			}
			prefixes = append(prefixes, prefix)
		}
	}
	docs, chunks, err := eng.Sync(a.ctx, project, prefixes, seen)
	return docs, deleted + chunks, err
}

// progress draws progress bars on stderr while the Engine works, when it
// is a terminal and the output is not JSON (and the command does not
// report its own).
func (a *app) progress() mneme.Observer {
	if a.json || !isTerminal(a.stderr) || a.ownProgress {
		return mneme.Observer{}
	}
	units := map[string]string{"ingest": "files", "embed": "texts"}
	var mu sync.Mutex
	bars := map[string]func(done, total int){} // one per running task, for its rate
	return mneme.Observer{Progress: func(task string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if total == 0 { // unknown: a counter
			fmt.Fprintf(a.stderr, "\r%s: %d memories embedded", task, done)
			return
		}
		bar := bars[task]
		if bar == nil {
			bar = progressBar(a, fmt.Sprintf("%-6s", task), units[task])
			bars[task] = bar
		}
		bar(done, total)
		if done >= total {
			delete(bars, task)
		}
	}}
}

// progressBar draws a bar of done out of total units on stderr, with the
// rate since the first call (what bounds an import is the model's rate).
func progressBar(a *app, label, unit string) func(done, total int) {
	start, first := time.Now(), -1
	return func(done, total int) {
		const width = 30
		n := width * done / max(total, 1)
		rate := ""
		if first < 0 {
			first, start = done, time.Now()
		} else if s := time.Since(start).Seconds(); s > 0 {
			rate = fmt.Sprintf(", %.0f/s", float64(done-first)/s)
		}
		fmt.Fprintf(a.stderr, "\r%s [%s%s] %d/%d %s%s", label, strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total, unit, rate)
		if done == total {
			fmt.Fprintln(a.stderr)
		}
	}
}
