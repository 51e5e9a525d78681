package main

import (
	"cmp"
	"fmt"
	"os/user"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["promote"] = command{
		usage:   "promote ID… --to semantic|procedural [--status validated|published] [--title T]",
		summary: "make memories reusable: a checked fact or how-to, with who promoted it and when",
		run:     runPromote,
	}
}

func runPromote(a *app, args []string) error {
	fs := a.flags()
	var req mneme.PromoteRequest
	fs.Func("to", "the reusable type: semantic (a fact) or procedural (a how-to)", func(v string) error { req.To = mneme.Type(v); return nil })
	fs.Func("status", "validated (the default) or published", func(v string) error { req.Status = mneme.Status(v); return nil })
	fs.StringVar(&req.Title, "title", "", "the reusable record's title (default: the source's)")
	clearance := fs.String("clearance", "internal", "highest sensitivity to promote: internal, or secret")
	ids, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	req.IDs = ids
	level, err := mneme.ParseSensitivity(*clearance)
	if err == nil {
		err = req.Check()
	}
	if err != nil {
		return err
	}
	eng, err := a.open(config.Writes) // a new record is embedded
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.Promote(mneme.WithScope(a.ctx, a.localOwner()), req, level)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	r := res.Record
	fmt.Fprintf(a.stdout, "%s %s: %s %s  %s\n", res.Outcome, r.ID, r.Status, r.Type, headline(r))
	return nil
}

// localOwner is the CLI's scope, the data directory's owner, named after
// the local user: promotions say who made them.
func (a *app) localOwner() mneme.Scope {
	sc := mneme.Owner
	name := a.getenv("USER")
	if u, err := user.Current(); err == nil {
		name = cmp.Or(u.Username, name)
	}
	sc.Name = cmp.Or(name, sc.Name)
	return sc
}
