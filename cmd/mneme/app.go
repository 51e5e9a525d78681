package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

// command is one subcommand: its usage line, summary and body.
type command struct {
	usage   string
	summary string
	run     func(a *app, args []string) error
}

var commands = map[string]command{}

// subcommands are the commands under a command ("model fetch"), by their
// full name; help lists only their parent.
var subcommands = map[string]command{}

// app is one invocation: streams, environment and the common flags.
type app struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	name           string // the subcommand
	json           bool
	home           string
	embedder       string // --embedder, where the command takes it
	store          string // --store
	cfg            *config.Config
	warned         map[string]bool // the warnings given (warn)
	ownProgress    bool            // the command reports its own progress (code --index)
	warnMu         sync.Mutex
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	slog.SetDefault(slog.New(noteHandler{a})) // the library's warnings, as notes
	if len(args) > 1 && args[0] == "help" {   // mneme help recall: recall's help
		args = append(args[1:len(args):len(args)], "-h")
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		a.usage()
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "-v" {
		args = append([]string{"version"}, args[1:]...)
	}
	a.name = args[0]
	cmd, ok := commands[a.name]
	if !ok {
		a.json, a.name = hasJSONFlag(args), ""
		return a.fail(mneme.Invalid("unknown command %q: run `mneme help` for the list", mneme.Clip(args[0])))
	}
	err := cmd.run(a, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return a.fail(err)
}

// hasJSONFlag reports whether args ask for --json before "--" (after it,
// everything is text).
func hasJSONFlag(args []string) bool {
	for _, s := range args {
		switch s {
		case "--json", "-json":
			return true
		case "--":
			return false
		}
	}
	return false
}

func (a *app) usage() {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(a.stdout, "mneme: long-term memory for AI agents\n\nUsage: mneme COMMAND [flags]\n\nCommands:")
	for _, n := range names {
		fmt.Fprintf(a.stdout, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(a.stdout, "\nEvery command takes --json, and those that use a data directory --home DIR. Run `mneme help COMMAND` (or `mneme COMMAND -h`) for its flags, `mneme --version` for the version.")
}

// fail reports err (if any) and returns the exit code: 0 ok, 2 invalid
// input, 128+n after signal n (130 for Ctrl-C), 1 anything else.
func (a *app) fail(err error) int {
	if err == nil {
		return 0
	}
	code, msg := mneme.ErrorCode(err), mneme.Render(err, flagTerms)
	var in *mneme.Interrupted
	sig, signalled := context.Cause(a.ctx).(signalled)
	switch {
	case errors.As(err, &in):
		msg += "; run the same command again to resume"
	case signalled && !strings.HasPrefix(msg, "interrupted"):
		msg = "interrupted: " + msg
	}
	if signalled && isTerminal(a.stderr) && !a.json {
		fmt.Fprintln(a.stderr) // after a progress bar
	}
	if a.json {
		b, _ := json.Marshal(mneme.ErrorEnvelope{Error: mneme.ErrorBody{Code: code, Message: msg, Hints: mneme.Hints(err)}})
		fmt.Fprintln(a.stderr, string(b))
	} else {
		fmt.Fprintf(a.stderr, "%s: %s\n", strings.TrimSpace("mneme "+a.name), block(msg))
	}
	switch {
	case signalled:
		return sig.exitCode()
	case code == mneme.EINVALID:
		return 2
	}
	return 1
}

// flagTerms words an error's hints as the flags that set those fields.
func flagTerms(h mneme.Hint) string {
	name, ok := map[string]string{"occurred_at": "at", "session_id": "session", "run_id": "run",
		"types": "type", "kinds": "kind", "statuses": "status"}[h.Field]
	if !ok {
		name = strings.ReplaceAll(h.Field, "_", "-")
	}
	switch h.Value {
	case "true":
		return "--" + name
	case "":
		return "--" + name + " " + strings.ToUpper(name)
	}
	return "--" + name + " " + h.Value
}

// flags returns the subcommand's flag set with the common flags on it.
func (a *app) flags() *flag.FlagSet {
	fs := a.bareFlags()
	fs.StringVar(&a.home, "home", "", "data directory (default $MNEME_HOME, else $XDG_DATA_HOME/mneme or ~/.local/share/mneme)")
	fs.StringVar(&a.store, "store", "", "store: sqlite (default), sqlite:DIR, postgres or postgres:SCHEMA (default $MNEME_STORE, else config.json); postgres reads its connection string from $MNEME_PG_DSN")
	return fs
}

// bareFlags is the flag set of a command that uses no data directory:
// --json only.
func (a *app) bareFlags() *flag.FlagSet {
	fs := flag.NewFlagSet("mneme "+a.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&a.json, "json", false, "machine-readable output; errors as JSON on stderr")
	return fs
}

// parse parses flags and positional arguments in any order and returns
// the positional ones. As usual, "--" ends the flags: everything after it
// is positional, even what starts with - (text like "- a bullet").
func (a *app) parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			cmd, ok := commands[a.name]
			if !ok {
				cmd = subcommands[a.name]
			}
			fmt.Fprintf(a.stdout, "Usage: mneme %s\n\n%s\n\nFlags:\n", cmd.usage, cmd.summary)
			fs.VisitAll(func(f *flag.Flag) {
				kind, usage := flag.UnquoteUsage(f)
				if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "-1" {
					usage += fmt.Sprintf(" (default %s)", f.DefValue)
				}
				fmt.Fprintf(a.stdout, "  --%s %s\n      %s\n", f.Name, kind, usage)
			})
			fmt.Fprintln(a.stdout, "  --\n      ends the flags: every argument after it is text, even one that starts with -")
			return nil, err
		}
		if err != nil {
			a.json = a.json || hasJSONFlag(args)
			if text := textAsFlag(err, args); text != "" {
				verb := textVerbs[a.name]
				if verb == "" {
					verb = "give"
				}
				return nil, mneme.Invalid("%s: to %s text that starts with -, put -- before it: mneme %s -- %q",
					flagError(err), verb, a.name, mneme.Clip(text))
			}
			return nil, mneme.Invalid("%s: run `mneme %s -h` for the flags", flagError(err), a.name)
		}
		rest := fs.Args()
		if ended(fs, args[:len(args)-len(rest)]) {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// ended reports whether parsed, the arguments a fs.Parse read, end with
// "--" in the place of a flag, not as a flag's value (--title --).
func ended(fs *flag.FlagSet, parsed []string) bool {
	for i := 0; i < len(parsed); i++ {
		arg := parsed[i]
		if arg == "--" {
			return true
		}
		name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				i++ // its value
			}
		}
	}
	return false
}

// textAsFlag is the argument an unknown-flag error is about when it looks
// like text rather than a mistyped flag (it has a space: "- a bullet"),
// else "".
func textAsFlag(err error, args []string) string {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "flag provided but not defined: ")
	if !ok {
		name, ok = strings.CutPrefix(msg, "bad flag syntax: ")
	}
	if !ok || !strings.Contains(name, " ") {
		return ""
	}
	for _, arg := range args {
		if arg == name || arg == "-"+name { // the message drops one of two dashes
			return arg
		}
	}
	return name
}

// textVerbs say what a command does with its text, for the hint ("give"
// for the others).
var textVerbs = map[string]string{"remember": "store", "recall": "search for"}

// flagError is the flag package's error with the values it quotes and an
// unknown flag's name clipped, so a huge argument does not come back whole.
func flagError(err error) string {
	msg := mneme.ClipMessage(err.Error())
	for _, prefix := range []string{"flag provided but not defined: ", "bad flag syntax: "} {
		if name, ok := strings.CutPrefix(msg, prefix); ok {
			return prefix + mneme.Clip(name)
		}
	}
	return msg
}

// parseFlags parses a command that takes flags only: a stray argument
// (a typo, a value without its flag) is an error, not silently ignored.
func (a *app) parseFlags(fs *flag.FlagSet, args []string) error {
	pos, err := a.parse(fs, args)
	if err == nil && len(pos) > 0 {
		err = mneme.Invalid("no arguments, only flags, but got %q: run `mneme %s -h` for the flags", mneme.Clip(pos[0]), a.name)
	}
	return err
}

// config is the process's configuration: config.json is read on the
// first call only, with the flags parsed so far.
func (a *app) config() (*config.Config, error) {
	if a.cfg == nil {
		c, err := config.Load(config.Options{Home: a.home, Store: a.store, Embedder: a.embedder, Getenv: a.getenv})
		if err != nil {
			return nil, err
		}
		a.cfg = c
	}
	return a.cfg, nil
}

// open opens the home as need requires, with progress bars for long work
// on a terminal.
func (a *app) open(need config.Need, extra ...mneme.Option) (*mneme.Engine, error) {
	c, err := a.config()
	if err != nil {
		return nil, err
	}
	if err := a.ctx.Err(); err != nil {
		return nil, &mneme.Error{Code: mneme.EUNAVAILABLE, Message: "interrupted before the data directory was opened: nothing was written", Err: err}
	}
	return c.Open(a.ctx, need, append([]mneme.Option{mneme.WithObserver(a.progress())}, extra...)...)
}

// openToRead opens the home for a command that only reads: a directory
// that holds no home is an error, not a new empty home (config.ReadOnly).
func (a *app) openToRead(need config.Need) (*mneme.Engine, error) {
	c, err := a.config()
	if err != nil {
		return nil, err
	}
	c.ReadOnly = true
	return a.open(need)
}

// embedderFlag registers --embedder on fs.
func (a *app) embedderFlag(fs *flag.FlagSet) {
	fs.StringVar(&a.embedder, "embedder", "", "embedding provider: minilm, minilm-int8, hash, ollama, openai or none (default $MNEME_EMBEDDER, else config.json, else the one the home's vectors come from, else minilm)")
}

// printJSON writes v as one line of JSON.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// listFlag collects a repeatable flag; each value may hold a comma list.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, mneme.SplitList(v)...); return nil }

// metaFlag collects repeatable --meta KEY=VALUE filter conditions.
type metaFlag mneme.MetaFilter

func (m *metaFlag) String() string { return "" }
func (m *metaFlag) Set(v string) error {
	c, err := mneme.ParseMetaMatch(v)
	if err != nil {
		return err
	}
	*m = append(*m, c)
	return nil
}

// metaUsage describes --meta for the commands that filter.
const metaUsage = "only records whose meta has this top-level value: KEY=VALUE, like tenant=acme (repeatable; all must hold; a record without KEY does not pass)"

// repeatFlag collects a repeatable flag whose values may contain commas.
type repeatFlag []string

func (r *repeatFlag) String() string     { return strings.Join(*r, " ") }
func (r *repeatFlag) Set(v string) error { *r = append(*r, v); return nil }
