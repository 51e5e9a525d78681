package main

import (
	"flag"
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

// forgetFlags are the filter flags forget and prune share.
type forgetFlags struct {
	f                  *mneme.ForgetFilter
	tags, types, kinds listFlag
}

func (ff *forgetFlags) register(fs *flag.FlagSet, f *mneme.ForgetFilter, verb string) {
	ff.f = f
	fs.StringVar(&f.Project, "project", "", verb+" in this project")
	fs.Var(&ff.tags, "tags", verb+" records with any of these tags")
	fs.Var(&ff.types, "type", verb+" records of this type (repeatable)")
	fs.Var(&ff.kinds, "kind", verb+" records of this kind, like note or decision (repeatable)")
	fs.StringVar(&f.Before, "before", "", verb+" records created before this time (RFC 3339, date, or age like 30d)")
	fs.StringVar(&f.Key, "key", "", verb+" every version of this key")
}

// fill copies the list flags into the filter, once they are parsed.
func (ff *forgetFlags) fill() {
	ff.f.Tags, ff.f.Kinds = ff.tags, ff.kinds
	for _, t := range ff.types {
		ff.f.Types = append(ff.f.Types, mneme.Type(t))
	}
}

func runForget(a *app, args []string) error {
	fs := a.flags()
	var req mneme.ForgetRequest
	var ff forgetFlags
	ff.register(fs, &req.ForgetFilter, "forget")
	fs.BoolVar(&req.DryRun, "dry-run", false, "show what would be forgotten; change nothing")
	ids, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	req.IDs = ids
	ff.fill()
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
	a.printDeleted("forgot", "would forget", req.DryRun, out.IDs)
	return nil
}

// printDeleted lists what a forget or prune deleted, or would delete.
func (a *app) printDeleted(done, would string, dryRun bool, ids []string) {
	verb := done
	if dryRun {
		verb = would
	}
	fmt.Fprintf(a.stdout, "%s %s\n", verb, mneme.Plural(len(ids), "memory", "memories"))
	for _, id := range ids {
		fmt.Fprintln(a.stdout, " ", id)
	}
}
