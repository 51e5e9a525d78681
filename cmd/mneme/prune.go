package main

import (
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["prune"] = command{
		usage:   "prune [--expired] [--status S] [--project P] [--type T] [--kind K] [--tags T] [--before TIME] [--key K] [--dry-run]",
		summary: "delete the memories explicit filters select (expired, a status, …); never a whole project",
		run:     runPrune,
	}
}

func runPrune(a *app, args []string) error {
	fs := a.flags()
	var req mneme.PruneRequest
	var ff forgetFlags
	var statuses listFlag
	ff.register(fs, &req.ForgetFilter, "prune")
	fs.BoolVar(&req.Expired, "expired", false, "prune records whose TTL has run out")
	fs.Var(&statuses, "status", "prune records with any of these statuses, like draft or superseded (comma list)")
	fs.BoolVar(&req.DryRun, "dry-run", false, "show what would be pruned; change nothing")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	ff.fill()
	for _, s := range statuses {
		req.Statuses = append(req.Statuses, mneme.Status(s))
	}
	if err := req.Check(time.Now()); err != nil {
		return err
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	out, err := eng.Prune(a.ctx, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(out)
	}
	a.printDeleted("pruned", "would prune", req.DryRun, out.IDs)
	return nil
}
