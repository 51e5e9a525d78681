package main

import (
	"bufio"
	"encoding/json"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["export"] = command{usage: "export [--project P] > FILE.jsonl", summary: "write every memory as one JSON object per line", run: runExport}
}

func runExport(a *app, args []string) error {
	fs := a.flags()
	project := fs.String("project", "", "only this project")
	clearance := fs.String("clearance", "internal", "highest sensitivity to export: public, internal or secret")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	f := mneme.Filter{Project: *project, Clearance: mneme.Sensitivity(*clearance), IncludeSuperseded: true, IncludeExpired: true}
	if err := f.Check(); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	w := bufio.NewWriter(a.stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := eng.Each(a.ctx, f, func(r *mneme.Record) error { return enc.Encode(r) }); err != nil {
		return err
	}
	return w.Flush()
}
