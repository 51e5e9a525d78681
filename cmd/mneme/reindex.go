package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["reindex"] = command{
		usage:   "reindex [--embedder NAME] [--keep-old]",
		summary: "embed every memory with the configured embedder (after changing it) beside the current vectors, then switch to them",
		run:     runReindex,
	}
}

func runReindex(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	keepOld := fs.Bool("keep-old", false, "keep the current embedder's vectors after the switch, so that switching back is instant")
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
	start := time.Now()
	res, err := jobs.Reindex(a.ctx, eng, mneme.ReindexOptions{KeepOld: *keepOld})
	if !a.json && isTerminal(a.stderr) && a.ctx.Err() == nil && res.Embedded > 0 {
		fmt.Fprintln(a.stderr) // ends the progress counter
	}
	if err != nil {
		return err
	}
	if err := a.cfg.AdoptEmbedder(); err != nil { // config.json names the home's embedder, as it did before
		return mneme.Prefix("the home switched to "+res.Embedder.ID()+", but config.json still names the old embedder", err)
	}
	if a.json {
		return a.printJSON(struct {
			mneme.ReindexResult
			rated
		}{res, rateSince(res.Embedded, start)})
	}
	fmt.Fprintln(a.stdout, reindexText(res))
	return nil
}

// reindexText says what a reindex did.
func reindexText(res mneme.ReindexResult) string {
	out := fmt.Sprintf("embedded %s with %s (%d dimensions)", mneme.Plural(res.Embedded, "memory", "memories"), res.Embedder.ID(), res.Embedder.Dim)
	if p := res.Previous; p != nil && mneme.SetKey(*p) != mneme.SetKey(res.Embedder) {
		out += fmt.Sprintf("; switched from %s", p.ID())
		if res.KeptOld {
			out += fmt.Sprintf(" (its vectors are kept: `mneme reindex --embedder %s` switches back at once)", p.Provider)
		}
	}
	return out
}
