package main

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["update"] = command{
		usage:   "update ID [--title T] [--text T] [--kind K] [--tags T] [--key K] [--status S] [--sensitivity S] [--provenance P] [--meta k=v] [--ttl D] [--redact]",
		summary: "change some fields of a stored memory; the others stay as they are",
		run:     runUpdate,
	}
}

func runUpdate(a *app, args []string) error {
	fs := a.flags()
	var p mneme.Patch
	str := func(name, usage string, dst **string) {
		fs.Func(name, usage, func(v string) error { *dst = &v; return nil })
	}
	str("title", "new title", &p.Title)
	str("text", "new text (re-embedded)", &p.Text)
	str("kind", "new kind", &p.Kind)
	str("key", "new topic key (\"\" removes it)", &p.Key)
	str("ttl", "forget after this long from now: 90m, 72h, 30d, 2w (\"\" removes the expiry)", &p.TTL)
	enum := func(name, usage string, set func(string)) {
		fs.Func(name, usage, func(v string) error { set(v); return nil })
	}
	enum("status", "active, draft, validated or published", func(v string) { s := mneme.Status(v); p.Status = &s })
	enum("sensitivity", "public, internal or secret", func(v string) { s := mneme.Sensitivity(v); p.Sensitivity = &s })
	enum("provenance", "verified, cited, assumed or cached", func(v string) { s := mneme.Provenance(v); p.Provenance = &s })
	var tags listFlag
	var meta repeatFlag
	fs.Var(&tags, "tags", "replace the tags (comma list; \"\" removes them)")
	fs.Var(&meta, "meta", "replace the metadata with these key=value pairs (repeatable)")
	fs.BoolVar(&p.Redact, "redact", false, "mask credentials found in any field (text, title, tags, key, source, meta, …) instead of refusing")
	clearance := fs.String("clearance", "internal", "highest sensitivity to change: public, internal or secret")
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("update takes exactly one record id, then the fields to change")
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["tags"] {
		p.Tags = (*[]string)(&tags)
	}
	if given["meta"] {
		m, err := mneme.MetaFromPairs(meta)
		if err != nil {
			return err
		}
		p.Meta = (*json.RawMessage)(&m)
	}
	level, err := mneme.ParseSensitivity(*clearance)
	if err != nil {
		return err
	}
	if p == (mneme.Patch{Redact: p.Redact}) {
		return mneme.Invalid("nothing to change: give the fields to update, like --tags a,b or --title T")
	}
	if err := p.Check(); err != nil {
		return err
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	r, err := eng.Patch(a.ctx, pos[0], p, level)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(r)
	}
	fmt.Fprintf(a.stdout, "updated %s\n", r.ID)
	return nil
}
