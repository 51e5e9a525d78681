package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["forget"] = command{
		usage:   "forget ID… | forget [--project P] [--type T] [--kind K] [--tags T] [--before TIME] [--key K] [--dry-run]",
		summary: "delete memories by id, or by filter",
		run:     runForget,
	}
}

func runForget(a *app, args []string) error {
	fs := a.flags()
	var req mneme.ForgetRequest
	var tags, types, kinds listFlag
	fs.StringVar(&req.Project, "project", "", "forget in this project")
	fs.Var(&tags, "tags", "forget records with any of these tags")
	fs.Var(&types, "type", "forget records of this type (repeatable)")
	fs.Var(&kinds, "kind", "forget records of this kind, like note or decision (repeatable)")
	fs.StringVar(&req.Before, "before", "", "forget records created before this time (RFC 3339, date, or age like 30d)")
	fs.StringVar(&req.Key, "key", "", "forget every version of this key")
	fs.BoolVar(&req.DryRun, "dry-run", false, "show what would be forgotten; change nothing")
	ids, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	req.IDs, req.Tags, req.Kinds = ids, tags, kinds
	for _, t := range types {
		req.Types = append(req.Types, mneme.Type(t))
	}
	if err := req.Check(time.Now()); err != nil {
		return err
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	out, err := eng.Forget(a.ctx, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(out)
	}
	verb := "forgot"
	if req.DryRun {
		verb = "would forget"
	}
	fmt.Fprintf(a.stdout, "%s %d memories\n", verb, len(out.IDs))
	for _, id := range out.IDs {
		fmt.Fprintln(a.stdout, " ", id)
	}
	return nil
}
