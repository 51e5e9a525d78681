package main

import (
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["prune"] = command{usage: "prune --expired", summary: "delete memories whose TTL has run out", run: runPrune}
}

func runPrune(a *app, args []string) error {
	fs := a.flags()
	expired := fs.Bool("expired", false, "delete expired memories")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if !*expired {
		return mneme.Invalid("say what to prune: --expired")
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	n, err := eng.Prune(a.ctx)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(map[string]int{"pruned": n})
	}
	fmt.Fprintf(a.stdout, "pruned %d expired memories\n", n)
	return nil
}
