package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/embed/minilm/fetch"
)

func init() {
	commands["init"] = command{
		usage:   "init [--home DIR] [--store sqlite] [--embedder minilm|minilm-int8|hash|none] [--no-fetch] [--from FILE] [--url URL] [--yes]",
		summary: "set up a data directory: config.json, the model, a doctor run, and the MCP client configs to paste",
		run:     runInit,
	}
}

// initResult is what init did, for --json.
type initResult struct {
	Home     string            `json:"home"`
	Config   string            `json:"config"`
	Store    string            `json:"store"`
	Embedder string            `json:"embedder"`
	Model    *fetch.Result     `json:"model,omitempty"`
	Checks   []check           `json:"checks"`
	Clients  map[string]string `json:"clients,omitempty"` // only when every check passed
}

func runInit(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	noFetch := fs.Bool("no-fetch", false, "do not fetch the built-in model")
	from := fs.String("from", "", "install the model from this tarball of its package")
	url := fs.String("url", "", "download the model's package from this URL (default $MNEME_MODEL_URL)")
	yes := fs.Bool("yes", false, "ask nothing: take the flags and the defaults")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var asked config.File
	if isTerminal(a.stdin) && !*yes && !a.json {
		var err error
		if asked, err = a.askInit(given); err != nil {
			return err
		}
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	f := c.File
	f.Store = cmp.Or(config.AbsStore(a.store), f.Store)
	if a.embedder != "" {
		f.Embedder.Provider = a.embedder
	}
	if asked.Embedder.Provider != "" {
		f.Embedder = asked.Embedder
	}
	if asked.LLM.Provider != "" {
		f.LLM = asked.LLM
	}
	if err := f.Check(); err != nil {
		return err
	}
	if err := a.fitsHome(c, f.Embedder); err != nil {
		return err
	}
	if err := config.WriteFile(c.Home, f); err != nil {
		return err
	}
	a.cfg = nil // read what was written
	if c, err = a.config(); err != nil {
		return err
	}
	out := initResult{Home: c.Home, Config: filepath.Join(c.Home, config.FileName), Store: c.Store, Embedder: cmp.Or(c.Embedder.Provider, "minilm")}
	if (out.Embedder == "minilm" || out.Embedder == "minilm-int8") && !*noFetch {
		res, err := fetch.Fetch(a.ctx, fetch.Options{Dir: c.ModelDir, From: *from, URL: cmp.Or(*url, a.getenv("MNEME_MODEL_URL"))})
		if err != nil {
			return err
		}
		out.Model = &res
	}
	if out.Checks, err = a.initHome(); err != nil {
		return err
	}
	failed := 0
	for _, ch := range out.Checks {
		if !ch.OK {
			failed++
		}
	}
	if failed == 0 { // the MCP clients would only meet the failure
		out.Clients = clientConfigs(c.Home)
	}
	if a.json {
		err = a.printJSON(out)
	} else {
		a.printInit(out)
	}
	if err == nil && failed > 0 {
		err = mneme.Errorf(mneme.EUNAVAILABLE, "the home in %s does not work yet: %d of %d checks failed (fix what they say, then run `mneme doctor`, or `mneme init` again)", c.Home, failed, len(out.Checks))
	}
	return err
}

// fitsHome refuses an embedder other than the one the vectors of an
// existing home come from: every write would fail until a reindex.
func (a *app) fitsHome(c *config.Config, ec config.Embedder) error {
	c.ReadOnly = true // a new home is created below, after the checks
	s, err := c.OpenStore(a.ctx)
	if err != nil {
		return nil // no home yet, or one doctor reports on below
	}
	defer s.Close()
	info, ok, err := s.HomeEmbedder(a.ctx)
	if err != nil || !ok || ec.Fits(info) {
		return err
	}
	return mneme.Invalid("the vectors of %s come from %s (%d dimensions), not %s: every write would fail. Run `mneme reindex --embedder %s` first to re-embed the home with it (then init again), or keep %s",
		c.Home, info.ID(), info.Dim, ec.Provider, ec.Provider, info.Provider)
}

// initHome creates the home's store (reads do not) and checks it.
func (a *app) initHome() ([]check, error) {
	if eng, err := a.open(config.Records); err == nil {
		eng.Close()
	} // else doctor says what is wrong
	return a.diagnose(false)
}

func (a *app) printInit(out initResult) {
	fmt.Fprintf(a.stdout, "home:     %s\nconfig:   %s\nstore:    %s\nembedder: %s\n", out.Home, out.Config, out.Store, out.Embedder)
	if m := out.Model; m != nil {
		fmt.Fprintf(a.stdout, "model:    %s\n", m.Dir)
	}
	fmt.Fprintln(a.stdout, "\ndoctor:")
	for _, c := range out.Checks {
		mark := "ok  "
		if !c.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(a.stdout, "  %s %-14s %s\n", mark, c.Name, c.Detail)
	}
	if out.Clients == nil {
		return
	}
	fmt.Fprintln(a.stdout, "\nMCP clients, ready to paste:")
	for _, name := range []string{"claude-code", "claude-desktop-cursor", "codex"} {
		fmt.Fprintf(a.stdout, "\n%s:\n%s\n", name, out.Clients[name])
	}
}

// clientConfigs are the MCP client entries for this binary and home.
func clientConfigs(home string) map[string]string {
	bin, err := os.Executable()
	if err != nil {
		bin = "mneme"
	}
	entry, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"mneme": map[string]any{
		"command": bin, "args": []string{"mcp"}, "env": map[string]string{"MNEME_HOME": home}}}})
	return map[string]string{
		"claude-code":           fmt.Sprintf("claude mcp add mneme --env MNEME_HOME=%s -- %s mcp", shellQuote(home), shellQuote(bin)),
		"claude-desktop-cursor": string(entry),
		"codex":                 fmt.Sprintf("[mcp_servers.mneme]\ncommand = %q\nargs = [\"mcp\"]\nenv = { MNEME_HOME = %q }", bin, home),
	}
}
