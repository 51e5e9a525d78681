package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["sync"] = command{
		usage:   "sync [--embedder NAME] [--indexes]",
		summary: "embed the memories written while the embedder was down (pending embedding)",
		run:     runSync,
	}
}

func runSync(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	indexes := fs.Bool("indexes", false, "only bring the search indexes up to date and save them (embeds nothing): what a hook starts in the background when they are cold")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *indexes && a.embedder != "" {
		return mneme.Invalid("sync --indexes embeds nothing: drop --embedder, or drop --indexes to embed the pending memories")
	}
	if *indexes {
		return a.warmIndexes()
	}
	eng, err := a.open(config.Embedding)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := jobs.EmbedPending(a.ctx, eng)
	if !a.json && isTerminal(a.stderr) && a.ctx.Err() == nil && res.Embedded > 0 {
		fmt.Fprintln(a.stderr) // ends the progress counter (an interruption's message ends it itself)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "embedded %s with %s; %s\n", mneme.Plural(res.Embedded, "pending memory", "pending memories"),
		res.Embedder.ID(), mneme.Plural(res.Pending, "memory still waits", "memories still wait"))
	return nil
}

// warmIndexes is `sync --indexes`.
func (a *app) warmIndexes() error {
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	n, err := eng.WarmIndexes(a.ctx)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(map[string]int64{"indexed": n})
	}
	fmt.Fprintf(a.stdout, "indexed %s; the search indexes are up to date and saved\n", mneme.Plural(int(n), "change", "changes"))
	return nil
}

const requireEmbeddingUsage = "fail (EUNAVAILABLE) when the embedder is down or slow, instead of storing the memories pending embedding"

// notePending tells on stderr what a write stored without a vector.
func (a *app) notePending(res mneme.WriteResult) {
	if res.PendingEmbeddings == 0 {
		return
	}
	a.warn(WPENDING, fmt.Sprintf("%s without a vector, pending embedding (%s): `mneme sync` embeds them once the embedder answers (mneme serve and mneme mcp do it in the background); recall finds them by words meanwhile",
		mneme.Plural(res.PendingEmbeddings, "memory stored", "memories stored"), res.PendingReason))
}

// syncEvery is how often a server looks for memories that other processes
// left pending; its own writes wake it at once.
const syncEvery = time.Minute

// keepEmbedding embeds pending memories in the background, logging what
// it did, until the returned function is called: it stops the work and
// waits for it to end, so the store is closed after it.
func keepEmbedding(ctx context.Context, eng *mneme.Engine, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx := jobs.WithCaller(ctx, "background")
		eng.KeepEmbedding(ctx, syncEvery, func(started time.Time, res mneme.SyncResult, err error) {
			if lerr := jobs.Log(ctx, eng, jobs.KindSync, started, map[string]int{"embedded": res.Embedded, "pending": res.Pending}, err); lerr != nil {
				log.Warn("recording the sync in the job ledger failed", "error", mneme.ErrorMessage(lerr))
			}
			if err != nil {
				log.Warn("embedding pending memories failed", "embedded", res.Embedded, "error", mneme.ErrorMessage(err))
				return
			}
			log.Info("embedded pending memories", "embedded", res.Embedded, "pending", res.Pending, "embedder", res.Embedder.ID())
		})
	}()
	return func() { cancel(); <-done }
}
