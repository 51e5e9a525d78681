package main

import (
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["reindex"] = command{
		usage:   "reindex [--embedder NAME]",
		summary: "re-embed every memory with the configured embedder (after changing it) and rebuild the indexes",
		run:     runReindex,
	}
}

func runReindex(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	eng, err := a.open(config.Embedding)
	if err != nil {
		return err
	}
	defer eng.Close()
	if eng.Embedder() == nil {
		return mneme.Invalid("no embedder is configured: choose one with --embedder, $MNEME_EMBEDDER or config.json")
	}
	res, err := eng.Reindex(a.ctx)
	if !a.json && isTerminal(a.stderr) && a.ctx.Err() == nil {
		fmt.Fprintln(a.stderr) // after the progress counter (an interruption's message ends it itself)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "embedded %d memories with %s (%d dimensions)\n", res.Embedded, res.Embedder.ID(), res.Embedder.Dim)
	return nil
}
