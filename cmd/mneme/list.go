package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["list"] = command{usage: "list [flags]", summary: "list memories, newest first", run: runList}
}

func runList(a *app, args []string) error {
	fs := a.flags()
	var ff filterFlags
	ff.register(fs)
	limit := fs.Int("limit", 20, "records per page")
	cursor := fs.String("cursor", "", "next_cursor from the previous page")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	f, err := ff.filter(time.Now())
	if err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	recs, next, err := eng.List(a.ctx, f, *limit, *cursor)
	if err != nil {
		return err
	}
	if recs == nil {
		recs = []*mneme.Record{}
	}
	if a.json {
		return a.printJSON(mneme.ListPage{Records: recs, NextCursor: next})
	}
	for _, r := range recs {
		fmt.Fprintf(a.stdout, "%s  %-10s %-10s %s\n", r.ID, oneLine(r.Project), oneLine(string(r.Type)), headline(r))
	}
	if next != "" {
		fmt.Fprintf(a.stdout, "more: --cursor %s\n", next)
	}
	return nil
}
