package main

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["get"] = command{usage: "get ID [flags]", summary: "show one memory", run: runGet}
}

func runGet(a *app, args []string) error {
	fs := a.flags()
	clearance := fs.String("clearance", "internal", "highest sensitivity to show: public, internal or secret")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("get takes exactly one record id")
	}
	level, err := mneme.ParseSensitivity(*clearance)
	if err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	r, err := eng.Get(a.ctx, pos[0], level)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(r)
	}
	printRecord(a, r)
	return nil
}

// printRecord writes a record for people: a header of its fields, then
// text, control characters escaped (print.go).
func printRecord(a *app, r *mneme.Record) {
	fmt.Fprintf(a.stdout, "id:       %s\nproject:  %s\ntype:     %s/%s\nstatus:   %s\ncreated:  %s\n",
		r.ID, oneLine(r.Project), oneLine(string(r.Type)), oneLine(r.Kind), oneLine(string(r.Status)), r.CreatedAt.Format("2006-01-02 15:04:05Z07:00"))
	if r.Title != "" {
		fmt.Fprintf(a.stdout, "title:    %s\n", oneLine(r.Title))
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(a.stdout, "tags:     [%s]\n", oneLine(strings.Join(r.Tags, " ")))
	}
	if r.Key != "" {
		fmt.Fprintf(a.stdout, "key:      %s\n", oneLine(r.Key))
	}
	if r.Source != nil {
		fmt.Fprintf(a.stdout, "source:   %s", oneLine(r.Source.URI))
		if r.Source.LineStart > 0 {
			fmt.Fprintf(a.stdout, ":%d-%d", r.Source.LineStart, r.Source.LineEnd)
		}
		fmt.Fprintln(a.stdout)
	}
	if r.ExpiresAt != nil {
		fmt.Fprintf(a.stdout, "expires:  %s\n", r.ExpiresAt.Format("2006-01-02 15:04:05Z07:00"))
	}
	for _, l := range r.Links {
		fmt.Fprintf(a.stdout, "link:     %s %s\n", l.Type, l.Target)
	}
	for _, p := range r.Promotions {
		fmt.Fprintf(a.stdout, "promoted: %s\n", oneLine(p.String()))
	}
	fmt.Fprintf(a.stdout, "\n%s\n", block(r.Text))
}
