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
		usage:   "sync [--embedder NAME]",
		summary: "embed the memories written while the embedder was down (pending embedding)",
		run:     runSync,
	}
}

func runSync(a *app, args []string) error {
	return embedJob(a, args, func(eng *mneme.Engine, ctx context.Context) (mneme.SyncResult, error) {
		return jobs.EmbedPending(ctx, eng)
	},
		func(res mneme.SyncResult) bool { return res.Embedded > 0 },
		func(res mneme.SyncResult) string {
			return fmt.Sprintf("embedded %s with %s; %s", mneme.Plural(res.Embedded, "pending memory", "pending memories"),
				res.Embedder.ID(), mneme.Plural(res.Pending, "memory still waits", "memories still wait"))
		})
}

// embedJob runs a command that embeds with the configured embedder (sync,
// reindex): it runs job, ends the progress counter on a terminal when
// counted says the job showed one (an interruption's message ends it
// itself), and prints the result as JSON or as text's line.
func embedJob[T any](a *app, args []string, job func(*mneme.Engine, context.Context) (T, error), counted func(T) bool, text func(T) string) error {
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
	res, err := job(eng, a.ctx)
	if !a.json && isTerminal(a.stderr) && a.ctx.Err() == nil && counted(res) {
		fmt.Fprintln(a.stderr)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintln(a.stdout, text(res))
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
