package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/hook"
	"github.com/mneme-ai/mneme/importers"
)

// importFromOutput is what `import --from` did: the records by type and
// kind, and the write.
type importFromOutput struct {
	Format string `json:"format"`
	importers.Counts
	mneme.WriteResult
	// Forgotten counts the records of sections no longer in the files
	// (formats that replace, such as markdown-memory).
	Forgotten int `json:"forgotten"`
}

// importFrom reads another memory tool's file or folder (path) in format
// and imports its records: every one is checked before the first write.
func (a *app) importFrom(format, path, project string, opts mneme.WriteOptions) error {
	if _, ok := hook.Transcripts[format]; ok { // an agent's transcript, mapped as the hooks map it
		if project != "" {
			return mneme.Invalid("--project does not go with --from %s: the hooks' configuration names the project", format)
		}
		data, err := a.readLines(path)
		if err != nil {
			return err
		}
		return a.importTranscript(format, data)
	}
	f, ok := importers.Lookup(format)
	if !ok {
		return mneme.Invalid("--from %q is not known: use one of %s", mneme.Clip(format), strings.Join(fromFormats(), ", "))
	}
	if project == "" && f.RepoProject {
		project = a.repoProject(path)
	}
	if project == "" {
		project = mneme.DefaultProject
	}
	if err := mneme.ValidateProject(project); err != nil {
		return err
	}
	in, err := importers.Read(f, path, project)
	if err != nil {
		return err
	}
	recs, err := f.Parse(in)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return mneme.Invalid("%s: no memories in it", path)
	}
	for i, r := range recs { // bad input before the store is opened
		if err := mneme.Check(*r, opts); err != nil {
			return mneme.Prefix(fmt.Sprintf("%s: record %d", path, i+1), err)
		}
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.Import(a.ctx, recs, opts)
	var be *mneme.BatchError
	if errors.As(err, &be) {
		return mneme.Prefix(fmt.Sprintf("%s: record %d", path, be.Index+1), be.Err)
	}
	if err != nil {
		return err
	}
	res.ID = ""
	a.notePending(res)
	out := importFromOutput{Format: format, Counts: importers.Count(recs), WriteResult: res}
	if f.Replaces {
		gone, err := importers.Removed(a.ctx, eng, format, in, recs)
		if err == nil && len(gone) > 0 {
			var fr mneme.ForgetResult
			fr, err = eng.Forget(a.ctx, mneme.ForgetRequest{IDs: gone})
			out.Forgotten = fr.Forgotten
		}
		if err != nil {
			return err
		}
	}
	if a.json {
		return a.printJSON(out)
	}
	var parts []string
	for _, t := range []mneme.Type{mneme.Semantic, mneme.Episodic, mneme.Procedural} {
		if n := out.Types[string(t)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t))
		}
	}
	fmt.Fprintf(a.stdout, "imported %s from %s (%s): %d inserted, %d updated, %d unchanged",
		mneme.Plural(out.Records, "memory", "memories"), format, strings.Join(parts, ", "), res.Inserted, res.Updated, res.SkippedDuplicates)
	if f.Replaces {
		fmt.Fprintf(a.stdout, ", %d forgotten (no longer in the files)", out.Forgotten)
	}
	fmt.Fprintln(a.stdout)
	return nil
}

// fromFormats are the formats --from reads: other memory tools' exports
// (package importers) and agents' transcripts (package hook).
func fromFormats() []string {
	names := importers.Names()
	for n := range hook.Transcripts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// repoProject is the project the hooks give the repository path is in
// (hooks.project in config.json, else the repository's folder name).
func (a *app) repoProject(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if st, err := os.Stat(abs); err == nil && !st.IsDir() {
		abs = filepath.Dir(abs)
	}
	override := ""
	if c, err := a.config(); err == nil {
		override = c.File.Hooks.Project
	}
	return hook.FindRepo(abs, override).Project
}
