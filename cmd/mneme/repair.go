package main

import (
	"fmt"
	"path/filepath"

	"github.com/mneme-ai/mneme"
)

func init() {
	commands["repair"] = command{
		usage:   "repair [--to NEWDIR]",
		summary: "save what is still readable of a damaged database into a new data directory (the damaged one is left as it is)",
		run:     runRepair,
	}
}

func runRepair(a *app, args []string) error {
	fs := a.flags()
	to := fs.String("to", "", "the new data directory, which must be new or empty (default: the data directory's path followed by .repaired)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	if *to == "" {
		*to = filepath.Clean(c.Home) + ".repaired"
	}
	res, err := c.Repair(a.ctx, *to)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	count := mneme.Plural
	fmt.Fprintf(a.stdout, "saved %s (%s), %s and %s from %s into %s\n",
		count(res.Records, "record", "records"), count(res.Vectors, "with its vector", "with their vector"), count(res.Documents, "document", "documents"),
		count(res.Cached, "cached embedding", "cached embeddings"), res.From, res.To)
	switch lost := count(res.UnreadableRecords, "record", "records"); {
	case res.UnreadableRows > 0:
		fmt.Fprintf(a.stdout, "could not read %s, and %s (vectors, documents, cache, settings), on damaged pages\n", lost, count(res.UnreadableRows, "other row", "other rows"))
	case res.UnreadableRecords > 0:
		fmt.Fprintf(a.stdout, "could not read %s on damaged pages\n", lost)
	default:
		fmt.Fprintln(a.stdout, "every row could be read")
	}
	home := shellQuote(res.To)
	if res.Unembedded > 0 {
		fmt.Fprintf(a.stdout, "%s without a vector: embed them with `mneme reindex --home %s`\n", count(res.Unembedded, "record is", "records are"), home)
	}
	fmt.Fprintf(a.stdout, "%s was left as it was. Use the repaired data directory with --home %s or MNEME_HOME=%s (or move it in place of the damaged one), and check it with `mneme doctor --home %s`\n",
		res.From, home, home, home)
	return nil
}
