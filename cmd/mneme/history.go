package main

import (
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["history"] = command{usage: "history --key K [--project P]", summary: "show every version of a topic key, oldest first", run: runHistory}
}

func runHistory(a *app, args []string) error {
	fs := a.flags()
	key := fs.String("key", "", "topic key")
	project := fs.String("project", mneme.DefaultProject, "project")
	clearance := fs.String("clearance", "internal", "highest sensitivity to show: public, internal or secret")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	level, err := mneme.ParseSensitivity(*clearance)
	if err != nil {
		return err
	}
	if err := mneme.ValidateProject(*project); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	recs, err := eng.History(a.ctx, *project, *key, level)
	if err != nil {
		return err
	}
	if recs == nil {
		recs = []*mneme.Record{}
	}
	if a.json {
		return a.printJSON(map[string]any{"key": *key, "project": *project, "records": recs})
	}
	if len(recs) == 0 {
		fmt.Fprintf(a.stdout, "no memories with key %q in project %s\n", *key, *project)
	}
	for _, r := range recs {
		fmt.Fprintf(a.stdout, "%s  %-10s %s  %s\n", r.ID, r.Status, r.CreatedAt.Format("2006-01-02 15:04"), headline(r))
		for _, p := range r.Promotions {
			fmt.Fprintf(a.stdout, "  promoted: %s\n", oneLine(p.String()))
		}
	}
	return nil
}
