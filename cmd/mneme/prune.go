package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["prune"] = command{
		usage:   "prune [--expired] [--status S] [--project P] [--type T] [--kind K] [--tags T] [--before TIME] [--key K] [--meta K=V] [--dry-run] [--yes]",
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
	yes := fs.Bool("yes", false, fmt.Sprintf("prune more than %d records without asking", bulkDelete))
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
	if !req.DryRun && !*yes {
		dry := req
		dry.DryRun = true
		would, err := eng.Prune(a.ctx, dry)
		if err != nil {
			return err
		}
		if ok, err := a.confirmBulk("prune", len(would.IDs)); !ok || err != nil {
			return err
		}
		if len(would.IDs) > bulkDelete { // exactly what was confirmed
			gone, err := eng.Forget(a.ctx, mneme.ForgetRequest{IDs: would.IDs})
			if err != nil {
				return err
			}
			return a.printPruned(mneme.PruneResult{Pruned: gone.Forgotten, IDs: gone.IDs}, false)
		}
	}
	out, err := eng.Prune(a.ctx, req)
	if err != nil {
		return err
	}
	return a.printPruned(out, req.DryRun)
}

func (a *app) printPruned(out mneme.PruneResult, dryRun bool) error {
	if a.json {
		return a.printJSON(out)
	}
	a.printDeleted("pruned", "would prune", dryRun, out.IDs)
	return nil
}
