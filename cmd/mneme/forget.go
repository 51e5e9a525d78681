package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
)

func init() {
	commands["forget"] = command{
		usage:   "forget ID… | forget --project P [--tags T] [--before TIME] [--dry-run]",
		summary: "delete memories by id, or by filter",
		run:     runForget,
	}
}

func runForget(a *app, args []string) error {
	fs := a.flags()
	project := fs.String("project", "", "forget in this project")
	var tags, types listFlag
	fs.Var(&tags, "tags", "forget records with any of these tags")
	fs.Var(&types, "type", "forget records of this type (repeatable)")
	before := fs.String("before", "", "forget records created before this time (RFC 3339, date, or age like 30d)")
	key := fs.String("key", "", "forget every version of this key")
	dry := fs.Bool("dry-run", false, "show what would be forgotten; change nothing")
	ids, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	f := mneme.Filter{Project: *project, Tags: tags, Key: *key, Clearance: mneme.Secret}
	for _, t := range types {
		f.Types = append(f.Types, mneme.Type(t))
	}
	if f.Before, err = optionalTime("before", *before, time.Now()); err != nil {
		return err
	}
	byFilter := *project != "" || len(tags) > 0 || *before != "" || *key != "" || len(types) > 0
	if byFilter && len(ids) > 0 {
		return mneme.Invalid("give ids or a filter, not both")
	}
	if err := f.Check(); err != nil {
		return err
	}
	eng, err := a.open()
	if err != nil {
		return err
	}
	defer eng.Close()
	switch {
	case byFilter:
		ids, err = eng.ForgetWhere(a.ctx, f, *dry)
	case *dry:
		for _, id := range ids {
			if _, err = eng.Get(a.ctx, id, mneme.Secret); err != nil {
				break
			}
		}
	default:
		_, err = eng.Forget(a.ctx, ids)
	}
	if err != nil {
		return err
	}
	out := mneme.Forgot(ids, *dry)
	if a.json {
		return a.printJSON(out)
	}
	verb := "forgot"
	if *dry {
		verb = "would forget"
	}
	fmt.Fprintf(a.stdout, "%s %d memories\n", verb, len(out.IDs))
	for _, id := range out.IDs {
		fmt.Fprintln(a.stdout, " ", id)
	}
	return nil
}
