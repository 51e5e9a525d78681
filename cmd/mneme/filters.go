package main

import (
	"flag"
	"time"

	"github.com/mneme-ai/mneme"
)

// filterFlags are the record filters shared by recall, context and list.
type filterFlags struct {
	project, since, until, clearance string
	session, run                     string
	types, kinds, tags, statuses     listFlag
	allTags, superseded              bool
	meta                             metaFlag
}

func (f *filterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.project, "project", "", "only this project")
	fs.Var(&f.types, "type", "only this type: episodic, semantic or procedural (repeatable)")
	fs.Var(&f.kinds, "kind", "only this kind, like note or decision (repeatable)")
	fs.Var(&f.tags, "tags", "only records with any of these tags (comma list)")
	fs.Var(&f.statuses, "status", "only records with any of these statuses, like validated,published (the reusable ones)")
	fs.StringVar(&f.session, "session", "", "only records of this session")
	fs.StringVar(&f.run, "run", "", "only records of this run")
	fs.BoolVar(&f.allTags, "all-tags", false, "require every tag in --tags, not any")
	fs.Var(&f.meta, "meta", metaUsage)
	fs.StringVar(&f.since, "since", "", "only records that happened at or after this time (RFC 3339, a date, or an age like 7d)")
	fs.StringVar(&f.until, "until", "", "only records that happened at or before this time")
	fs.BoolVar(&f.superseded, "include-superseded", false, "include records replaced by a newer one with the same key")
	fs.StringVar(&f.clearance, "clearance", "internal", "highest sensitivity to show: public, internal or secret")
}

func (f *filterFlags) filter(now time.Time) (mneme.Filter, error) {
	out := mneme.Filter{Project: f.project, Kinds: f.kinds, Tags: f.tags, AllTags: f.allTags, Meta: f.meta,
		SessionID: f.session, RunID: f.run, IncludeSuperseded: f.superseded, Clearance: mneme.Sensitivity(f.clearance)}
	for _, t := range f.types {
		out.Types = append(out.Types, mneme.Type(t))
	}
	out.Statuses = f.statusList()
	var err error
	if out.Since, err = optionalTime("since", f.since, now); err != nil {
		return out, err
	}
	if out.Until, err = optionalTime("until", f.until, now); err != nil {
		return out, err
	}
	return out, out.Check()
}

func optionalTime(field, s string, now time.Time) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := mneme.ParseTime(field, s, now)
	return &t, err
}

func (f *filterFlags) statusList() []mneme.Status {
	var out []mneme.Status
	for _, s := range f.statuses {
		out = append(out, mneme.Status(s))
	}
	return out
}
