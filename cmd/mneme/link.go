package main

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	rels := strings.Join(mneme.LinkRelations(), "|")
	commands["link"] = command{
		usage:   "link FROM TO --rel " + rels + " [--clearance C]",
		summary: "link one memory to another with a typed relation (recall --expand follows it)",
		run:     func(a *app, args []string) error { return runLink(a, args, false) },
	}
	commands["unlink"] = command{
		usage:   "unlink FROM TO [--rel R] [--clearance C]",
		summary: "remove the links from one memory to another (of one relation, or all)",
		run:     func(a *app, args []string) error { return runLink(a, args, true) },
	}
}

// runLink is link, or unlink: both take two ids and a relation.
func runLink(a *app, args []string, unlink bool) error {
	fs := a.flags()
	rel := fs.String("rel", "", "the relation: "+strings.Join(mneme.LinkRelations(), ", "))
	clearance := fs.String("clearance", "internal", "highest sensitivity of the two memories: public, internal or secret")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return mneme.Invalid("%s takes two record ids, FROM and TO: mneme %s FROM TO --rel relates_to", a.name, a.name)
	}
	req := mneme.LinkRequest{From: pos[0], To: pos[1], Rel: *rel}
	if err := req.Check(unlink); err != nil {
		return err
	}
	level, err := mneme.ParseSensitivity(*clearance)
	if err != nil {
		return err
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	do := eng.Link
	if unlink {
		do = eng.Unlink
	}
	res, err := do(a.ctx, req, level)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	what := map[bool]string{false: "linked", true: "unlinked"}[unlink]
	if !res.Changed {
		what = map[bool]string{false: "already linked", true: "no such link"}[unlink]
	}
	fmt.Fprintln(a.stdout, strings.TrimSpace(fmt.Sprintf("%s %s → %s %s", what, req.From, req.To, req.Rel)))
	return nil
}
