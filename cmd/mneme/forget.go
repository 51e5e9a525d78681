package main

import (
	"bufio"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["forget"] = command{
		usage:   "forget ID… | forget [--project P] [--type T] [--kind K] [--tags T] [--before TIME] [--key K] [--meta K=V] [--dry-run] [--yes]",
		summary: "delete memories by id, or by filter",
		run:     runForget,
	}
}

// forgetFlags are the filter flags forget and prune share.
type forgetFlags struct {
	f                  *mneme.ForgetFilter
	tags, types, kinds listFlag
	meta               metaFlag
}

func (ff *forgetFlags) register(fs *flag.FlagSet, f *mneme.ForgetFilter, verb string) {
	ff.f = f
	fs.StringVar(&f.Project, "project", "", verb+" in this project")
	fs.Var(&ff.tags, "tags", verb+" records with any of these tags")
	fs.Var(&ff.types, "type", verb+" records of this type (repeatable)")
	fs.Var(&ff.kinds, "kind", verb+" records of this kind, like note or decision (repeatable)")
	fs.StringVar(&f.Before, "before", "", verb+" records created before this time (RFC 3339, date, or age like 30d)")
	fs.StringVar(&f.Key, "key", "", verb+" every version of this key")
	fs.Var(&ff.meta, "meta", verb+" records whose meta has this top-level value: KEY=VALUE (repeatable; all must hold)")
}

// fill copies the list flags into the filter, once they are parsed.
func (ff *forgetFlags) fill() {
	ff.f.Tags, ff.f.Kinds, ff.f.Meta = ff.tags, ff.kinds, mneme.MetaFilter(ff.meta)
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
	yes := fs.Bool("yes", false, fmt.Sprintf("forget more than %d records by filter without asking", bulkDelete))
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
	if len(req.IDs) == 0 && !req.DryRun && !*yes {
		dry := req
		dry.DryRun = true
		would, err := eng.Forget(a.ctx, dry)
		if err != nil {
			return err
		}
		if ok, err := a.confirmBulk("forget", len(would.IDs)); !ok || err != nil {
			return err
		}
		if len(would.IDs) > bulkDelete {
			req = mneme.ForgetRequest{IDs: would.IDs} // exactly what was confirmed
		}
	}
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

// bulkDelete is how many records forget or prune (by filter) deletes
// without --yes; above it they ask on a terminal and refuse elsewhere.
const bulkDelete = 10

// confirmBulk says whether verb may delete n records, asking on a terminal
// when they are more than bulkDelete. Without a terminal it refuses:
// a script must say --yes, and must not hang waiting for an answer.
func (a *app) confirmBulk(verb string, n int) (bool, error) {
	if n <= bulkDelete {
		return true, nil
	}
	if !isTerminal(a.stdin) {
		return false, mneme.Invalid("%s would delete %d memories (more than %d): add --yes to confirm (standard input is not a terminal, so mneme cannot ask), or --dry-run to list them; nothing was deleted", verb, n, bulkDelete)
	}
	fmt.Fprintf(a.stderr, "%s %d memories? [y/N] ", verb, n)
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	fmt.Fprintln(a.stderr, "nothing was deleted")
	return false, nil
}
