package main

import (
	"context"
	"errors"
	"flag"

	"io"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/hook"
	"github.com/mneme-ai/mneme/sqlite"
)

func init() {
	commands["hook"] = command{
		usage:   "hook HOST  (HOST: " + strings.Join(hook.Hosts, ", ") + "; the event JSON on standard input)",
		summary: "capture an agent host's hook event (run by the host; `mneme setup HOST` installs it)",
		run:     runHook,
	}
}

// Bounds of one hook invocation: the event read, and the time it may take
// (the hosts wait for it).
const (
	maxHookEvent = 16 << 20
	hookTimeout  = 5 * time.Second
)

// errDeferred is why a hook stores what it captures pending embedding: a
// model load per tool call would make the host wait.
var errDeferred = &mneme.Error{Code: mneme.EUNAVAILABLE,
	Message: "hooks defer embedding to keep the host fast: `mneme sync` (or a running server) embeds what they captured"}

// runHook never fails the host: whatever goes wrong, it exits 0 with
// nothing on stdout and logs the reason in the home's logs/hooks.log.
func runHook(a *app, args []string) error {
	fs := a.flags()
	pos, err := a.parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	a.stderr = hookNotes{a} // the host may show standard error: notes go to the log
	out, err := a.hook(pos, err)
	if err != nil {
		home := a.home
		if c, cerr := a.config(); cerr == nil {
			home = c.Home
		}
		hook.Log(home, "hook %s: %s", strings.Join(pos, " "), mneme.ErrorMessage(err))
		return nil
	}
	if len(out) > 0 {
		a.stdout.Write(append(out, '\n'))
	}
	return nil
}

// hookNotes writes what mneme would print on standard error (a store's
// notes, warnings) to the home's hook log instead.
type hookNotes struct{ a *app }

func (w hookNotes) Write(p []byte) (int, error) {
	if c, err := w.a.config(); err == nil {
		hook.Log(c.Home, "%s", strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

func (a *app) hook(pos []string, perr error) ([]byte, error) {
	data, rerr := readEvent(a.stdin) // read whatever happens: the host is writing it
	if perr != nil {
		return nil, perr
	}
	if len(pos) != 1 {
		return nil, mneme.Invalid("hook takes one host: %s", strings.Join(hook.Hosts, ", "))
	}
	ad, ok := hook.Adapters[pos[0]]
	if !ok {
		return nil, mneme.Invalid("unknown host %q: use %s", mneme.Clip(pos[0]), strings.Join(hook.Hosts, ", "))
	}
	c, err := a.config()
	if err != nil || c.File.Hooks.Disabled {
		return nil, err
	}
	if err := c.File.Hooks.Check(); err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	ev, err := ad.Parse(data)
	if err != nil {
		return nil, mneme.Invalid("malformed %s event: %v", ad.Host(), err)
	}
	if ev.Kind == hook.Ignore {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(a.ctx, hookTimeout)
	defer cancel()
	eng, lexical, err := openForHook(ctx, c)
	if errors.Is(err, sqlite.ErrMigrationDeferred) { // this event is lost; the next ones are not
		startOnce(c.Home, "migrating", "schema migration", "migrate", "--home", c.Home)
	}
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	eng.LeaveIndexes() // a cold index is rebuilt by warmLater's process, never on the host's time
	core := hook.Core{Eng: eng, Home: c.Home, Budget: c.File.Hooks.Budget, Project: c.File.Hooks.Project, Lexical: lexical,
		Warm: warmLater(c.Home)}
	if c.File.LLM.Provider != "" { // a language model writes the session's summary, off the host's path
		core.Abstract = abstractLater(c.Home)
	}
	return core.Handle(ctx, ad, ev)
}

// openForHook opens the home with the configured embedder when it is
// cheap (hash, none); any other is deferred: captures wait pending, and
// the session-start package is built from words. A schema that is behind
// is not migrated on the host's time.
func openForHook(ctx context.Context, c *config.Config) (*mneme.Engine, bool, error) {
	c.DeferMigration = true
	switch c.File.Embedder.Provider {
	case "hash", "none":
		eng, err := c.Open(ctx, config.Writes)
		return eng, false, err
	}
	eng, err := c.Open(ctx, config.Records, mneme.WithEmbedderError(errDeferred))
	return eng, true, err
}

// readEvent reads one event, at most maxHookEvent bytes; the rest of a
// larger one is drained (so the host's write does not fail) and refused.
func readEvent(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxHookEvent+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxHookEvent {
		n, _ := io.Copy(io.Discard, r)
		return nil, mneme.Invalid("event of %d bytes is over the limit of %d: not captured", int64(len(data))+n, maxHookEvent)
	}
	return data, nil
}
