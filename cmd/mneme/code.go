package main

import (
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/codemem"
	"github.com/mneme-ai/mneme/config"
)

const codeUsage = "code explore|context|delta|refresh|watch [PATH] [--detail compact|normal|verbose] [--refresh] [--index [--progress]] [--format text|json] (watch: [--interval D] [--poll])"

var codeSubcommands = map[string]string{
	"explore": "scan a repository (reusing its cached artifact) and print what changed and its context slice",
	"context": "print the context slice: entry points, hot paths, top imports, the import graph",
	"delta":   "print what changed since the last code command on the repository",
	"refresh": "rehash every file of the repository and rewrite its artifact",
	"watch":   "print each change of the repository as a JSON line, as it happens",
}

func init() {
	commands["code"] = command{usage: codeUsage,
		summary: "code memory: explore a repository, its changes and where to start, from a cached artifact",
		run:     runCode}
	for name, summary := range codeSubcommands {
		subcommands["code "+name] = command{usage: "code " + name + " [PATH] [flags]", summary: summary, run: runCode}
	}
}

func runCode(a *app, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "-help" {
		a.json = hasJSONFlag(args)
		return mneme.Invalid("a subcommand is needed: explore, context, delta, refresh or watch (run `mneme code -h`)")
	}
	sub := args[0]
	if _, ok := codeSubcommands[sub]; !ok {
		if sub == "-h" || sub == "--help" || sub == "-help" || sub == "help" {
			fmt.Fprintf(a.stdout, "Usage: mneme %s\n\n%s\n\nSubcommands:\n", codeUsage, commands["code"].summary)
			for _, n := range []string{"explore", "context", "delta", "refresh", "watch"} {
				fmt.Fprintf(a.stdout, "  %-8s %s\n", n, codeSubcommands[n])
			}
			return flag.ErrHelp
		}
		a.json = hasJSONFlag(args)
		return mneme.Invalid("unknown code subcommand %q: use explore, context, delta, refresh or watch", mneme.Clip(sub))
	}
	a.name = "code " + sub
	fs := a.flags()
	var req codemem.Request
	fs.StringVar(&req.Detail, "detail", "compact", "context slice detail: compact, normal or verbose")
	fs.BoolVar(&req.Refresh, "refresh", false, "rehash every file instead of reusing unchanged ones")
	format := fs.String("format", "text", "output: text or json (--json is json)")
	index := fs.Bool("index", false, "embed every file whose records are missing or stale as code records (project: the repository id) and forget deleted ones")
	var progress progressFlag
	var watch codemem.WatchOptions
	if sub != "watch" {
		fs.Var(&progress, "progress", "with --index, progress on stderr: a bar on a terminal, else a line every 2 s (on unless --json; JSON lines with --json)")
	}
	if sub == "watch" {
		fs.DurationVar(&watch.Interval, "interval", 2*time.Second, "poll period (the only trigger without native file events)")
		fs.BoolVar(&watch.Poll, "poll", false, "poll instead of using native file events")
	}
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args[1:])
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 1:
		return mneme.Invalid("one repository at a time, but got %d paths", len(pos))
	case len(pos) == 1:
		req.ProjectRoot = pos[0]
	default:
		req.ProjectRoot = "."
	}
	switch *format {
	case "json":
		a.json = true
	case "text":
	default:
		return mneme.Invalid("--format %q is not known: use text or json", mneme.Clip(*format))
	}
	svc := codemem.New(codemem.Options{CacheDir: codemem.CacheDir(a.getenv)})
	var eng *mneme.Engine
	var report func(done, total int)
	if *index {
		if sub != "watch" {
			report = a.indexProgress(progress)
		}
		if eng, err = a.open(config.Writes); err != nil {
			return err
		}
		defer eng.Close()
	}
	if sub == "watch" {
		return a.codeWatch(svc, eng, req, watch)
	}
	env, err := svc.Run(sub, req)
	if err != nil {
		return err
	}
	out := codeOutput{Envelope: env}
	if eng != nil {
		res, err := codemem.Index(a.ctx, eng, env, report)
		if err != nil {
			return err
		}
		out.Index = &res
	}
	if a.json {
		return a.printJSON(out)
	}
	a.noteAll(env.Notes)
	printCode(a.stdout, out)
	return nil
}

// noteAll prints each note as "note: …" on standard error.
func (a *app) noteAll(notes []string) {
	for _, n := range notes {
		fmt.Fprintln(a.stderr, "note:", block(n))
	}
}

// codeOutput is an envelope with what --index did.
type codeOutput struct {
	*codemem.Envelope
	Index *codemem.IndexResult `json:"index,omitempty"`
}

// codeWatch prints each non-empty delta as one JSON line until
// interrupted; with --index, also a line when indexing changed records
// (the first scan catching up).
func (a *app) codeWatch(svc *codemem.Service, eng *mneme.Engine, req codemem.Request, o codemem.WatchOptions) error {
	ctx, stop := signal.NotifyContext(a.ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return svc.Watch(ctx, req, o, func(env *codemem.Envelope, native bool) error {
		out := codeOutput{Envelope: env}
		changed := !env.Delta.Empty()
		if eng != nil {
			res, err := codemem.Index(ctx, eng, env, nil)
			if err != nil {
				return err
			}
			out.Index = &res
			changed = changed || res.Files+res.Removed > 0
		}
		if !changed {
			return nil
		}
		return a.printJSON(out)
	})
}

// printCode is the text form of an envelope.
func printCode(w io.Writer, out codeOutput) {
	env := out.Envelope
	fmt.Fprintf(w, "%s %s (project %s): cache %s; %d files, %d reused, %d rehashed\n", env.Command, oneLine(env.ProjectRoot), env.ProjectID,
		env.CacheStatus, env.Stats.FileCount, env.Stats.ReusedEntries, env.Stats.RehashedEntries)
	d := env.Delta
	fmt.Fprintf(w, "delta: %d added, %d modified, %d removed\n", d.Added, d.Modified, d.Removed)
	for _, f := range d.Files {
		fmt.Fprintf(w, "  %-8s %s\n", f.Change, oneLine(f.Path))
	}
	if out.Index != nil {
		fmt.Fprintf(w, "index: %d files embedded (%d chunks), %d removed files forgotten\n", out.Index.Files, out.Index.Chunks, out.Index.Removed)
	}
	s := env.Context
	if s == nil {
		return
	}
	section := func(title string, n int) bool {
		if n > 0 {
			fmt.Fprintf(w, "%s:\n", title)
		}
		return n > 0
	}
	if section("entry points", len(s.EntryPoints)) {
		for _, ep := range s.EntryPoints {
			fmt.Fprintf(w, "  %-17s %s %s\n", oneLine(ep.Kind), oneLine(ep.Path), oneLine(ep.Name))
			if len(ep.Symbols) > 0 {
				fmt.Fprintf(w, "  %17s %s\n", "", oneLine(strings.Join(ep.Symbols, " ")))
			}
		}
	}
	counts := func(title string, cs []codemem.Count) {
		if section(title, len(cs)) {
			for _, c := range cs {
				fmt.Fprintf(w, "  %5d %s\n", c.N, oneLine(c.Name))
			}
		}
	}
	counts("most imported", s.HotPaths.MostImported)
	if section("recently changed", len(s.HotPaths.RecentlyChanged)) {
		for _, p := range s.HotPaths.RecentlyChanged {
			fmt.Fprintf(w, "  %s\n", oneLine(p))
		}
	}
	counts("top imports", s.TopImports)
	counts("languages", s.Languages)
	fmt.Fprintf(w, "import graph: %d nodes, %d edges (%d more left out)\n", len(s.Graph.Nodes), len(s.Graph.Edges), s.Graph.Truncated)
	if section("directories", len(s.Dirs)) {
		for _, d := range s.Dirs {
			fmt.Fprintf(w, "  %-40s %5d files %9d bytes %s\n", oneLine(d.Path), d.Files, d.Bytes, oneLine(d.Lang))
		}
	}
}
