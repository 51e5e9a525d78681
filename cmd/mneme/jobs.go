package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["jobs"] = command{
		usage:   "jobs [--kind sync|reindex|summarize|ingest|code] [--limit 50]",
		summary: "list the runs of the long jobs (the job ledger), newest first: what ran, for whom, what it did, where it stopped",
		run:     runJobs,
	}
}

func runJobs(a *app, args []string) error {
	fs := a.flags()
	var q jobs.Query
	kind := fs.String("kind", "", "only runs of this job: sync, reindex, summarize, ingest or code")
	fs.IntVar(&q.Limit, "limit", jobs.DefaultLimit, fmt.Sprintf("runs listed at most, 1 to %d", jobs.MaxLimit))
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	q.Kind = jobs.Kind(*kind)
	if q.Limit < 1 { // given: 0 is out of range, not "the default"
		return mneme.Invalid("limit %d is out of range: use 1 to %d entries", q.Limit, jobs.MaxLimit)
	}
	if err := q.Check(); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	es, err := jobs.List(a.ctx, eng, q)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(map[string]any{"jobs": es})
	}
	if len(es) == 0 {
		fmt.Fprintln(a.stdout, "no runs recorded")
	}
	for _, e := range es {
		fmt.Fprintln(a.stdout, jobLine(e))
	}
	return nil
}

// jobLine is one run on one line: when, what, how it ended, what it did.
func jobLine(e jobs.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-9s %-11s", e.StartedAt.Local().Format("2006-01-02 15:04:05"), e.Kind, e.Status)
	if e.EndedAt != nil {
		fmt.Fprintf(&b, " %s", e.EndedAt.Sub(e.StartedAt).Round(time.Millisecond))
	}
	fmt.Fprintf(&b, " by %s", e.Caller)
	if e.Project != "" {
		fmt.Fprintf(&b, " in %s", e.Project)
	}
	for i, k := range slices.Sorted(maps.Keys(e.Counts)) {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s %d", sep, strings.ReplaceAll(k, "_", " "), e.Counts[k])
	}
	if e.Cursor != "" {
		fmt.Fprintf(&b, "; resumes after %s", e.Cursor)
	}
	if e.Error != "" {
		fmt.Fprintf(&b, "; %s", e.Error)
	}
	return b.String()
}
