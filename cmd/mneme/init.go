package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/embed/minilm/fetch"
)

func init() {
	commands["init"] = command{
		usage:   "init [--home DIR] [--store sqlite] [--embedder minilm|hash|none] [--no-fetch] [--from FILE] [--url URL] [--yes]",
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
	Clients  map[string]string `json:"clients"`
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
	if isTerminal(a.stdin) && !*yes && !a.json {
		if err := a.askInit(given); err != nil {
			return err
		}
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	f := c.File
	f.Store = cmp.Or(a.store, f.Store)
	if a.embedder != "" {
		f.Embedder.Provider = a.embedder
	}
	if err := f.Check(); err != nil {
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
	if out.Embedder == "minilm" && !*noFetch {
		res, err := fetch.Fetch(a.ctx, fetch.Options{Dir: c.ModelDir, From: *from, URL: cmp.Or(*url, a.getenv("MNEME_MODEL_URL"))})
		if err != nil {
			return err
		}
		out.Model = &res
	}
	out.Checks = a.diagnose(false)
	out.Clients = clientConfigs(c.Home)
	if a.json {
		return a.printJSON(out)
	}
	a.printInit(out)
	return nil
}

// askInit asks on a terminal what the flags left open.
func (a *app) askInit(given map[string]bool) error {
	in := bufio.NewReader(a.stdin)
	ask := func(question, def string) (string, error) {
		fmt.Fprintf(a.stdout, "%s [%s]: ", question, def)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", mneme.Invalid("no answer on standard input: run `mneme init --yes` to take the defaults")
		}
		return cmp.Or(strings.TrimSpace(line), def), nil
	}
	var err error
	if !given["home"] {
		c, cerr := a.config()
		if cerr != nil {
			return cerr
		}
		if a.home, err = ask("Data directory", c.Home); err != nil {
			return err
		}
		a.cfg = nil
	}
	if !given["store"] {
		if a.store, err = ask("Store (sqlite, or postgres with $MNEME_PG_DSN set)", "sqlite"); err != nil {
			return err
		}
		a.cfg = nil
	}
	if !given["embedder"] {
		if a.embedder, err = ask("Embedder (minilm, hash, none, ollama, openai)", "minilm"); err != nil {
			return err
		}
	}
	return nil
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
