package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/ops"
)

const opsUsage = "ops write|read|prune [flags]"

var opsSubcommands = map[string]struct {
	summary string
	run     func(a *app, args []string) error
}{
	"write": {"store a batch of operational entries (sessions, runs, tool calls, …) atomically", runOpsWrite},
	"read":  {"print operational entries as session timelines, oldest first", runOpsRead},
	"prune": {"delete operational entries that happened before a time", runOpsPrune},
}

func init() {
	commands["ops"] = command{usage: opsUsage, summary: "operational memory: what agents did, by session and run",
		run: func(a *app, args []string) error { return a.runGroup("ops", []string{"write", "read", "prune"}, args) }}
	for name, sub := range opsSubcommands {
		subcommands["ops "+name] = command{usage: "ops " + name + " [flags]", summary: sub.summary, run: sub.run}
	}
}

func runOpsWrite(a *app, args []string) error {
	fs := a.flags()
	request := fs.String("request", "", "read the batch, a JSON object {\"entries\": [...]}, from FILE (- for standard input)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *request == "" {
		return mneme.Invalid("--request FILE is required (- for standard input)")
	}
	data, err := a.readInput(*request) // bounded, interruptible
	if err != nil {
		return err
	}
	b, err := ops.Decode(data)
	if err == nil {
		err = ops.Check(&b)
	}
	if err != nil {
		return err
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := ops.Write(a.ctx, eng, b)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "written %d, skipped %d duplicates\n", res.Written, res.Skipped)
	return nil
}

// opsQueryFlags are the filters of ops read.
type opsQueryFlags struct {
	project, session, run, since, until string
	kinds                               listFlag
}

func (f *opsQueryFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.project, "project", "", "only this project")
	fs.StringVar(&f.session, "session", "", "only this session")
	fs.StringVar(&f.run, "run", "", "only this run")
	fs.Var(&f.kinds, "kind", "only these kinds: "+strings.Join(ops.Kinds, ", ")+" (repeatable, comma list)")
	fs.StringVar(&f.since, "since", "", "only entries that happened at or after this time (RFC 3339, a date, or an age like 7d)")
	fs.StringVar(&f.until, "until", "", "only entries that happened at or before this time")
}

// query is the checked query the flags and limit ask for.
func (f *opsQueryFlags) query(now time.Time, limit int) (ops.Query, error) {
	q := ops.Query{Project: f.project, Session: f.session, Run: f.run, Kinds: mneme.SplitList(f.kinds...), Limit: limit}
	var err error
	if q.Since, err = optionalTime("since", f.since, now); err == nil {
		q.Until, err = optionalTime("until", f.until, now)
	}
	if err == nil {
		err = q.Check()
	}
	return q, err
}

func runOpsRead(a *app, args []string) error {
	fs := a.flags()
	var qf opsQueryFlags
	qf.register(fs)
	limit := fs.Int("limit", ops.DefaultLimit, "at most this many entries, the latest written kept")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	q, err := qf.query(time.Now(), *limit)
	if err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	page, err := ops.Read(a.ctx, eng, q)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(page)
	}
	ops.PrintTimeline(a.stdout, page)
	return nil
}

func runOpsPrune(a *app, args []string) error {
	fs := a.flags()
	var req ops.PruneRequest
	before := fs.String("before", "", "prune entries that happened before this time (RFC 3339, a date, or an age like 30d); required")
	fs.StringVar(&req.Project, "project", "", "only this project")
	fs.StringVar(&req.Session, "session", "", "only this session")
	fs.BoolVar(&req.DryRun, "dry-run", false, "show what would be pruned; change nothing")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	var err error
	if req.Before, err = optionalTime("before", *before, time.Now()); err == nil {
		err = req.Check()
	}
	if err != nil {
		return err
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	out, err := ops.Prune(a.ctx, eng, req)
	if err != nil {
		return err
	}
	return a.printPruned(out, req.DryRun)
}
