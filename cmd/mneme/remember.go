package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["remember"] = command{
		usage:   "remember [TEXT|-] [flags]",
		summary: "store a memory (TEXT, or standard input with - or a pipe)",
		run:     runRemember,
	}
}

func runRemember(a *app, args []string) error {
	fs := a.flags()
	var r mneme.RememberRequest
	var typ, status, prov, sens string
	var tags listFlag
	var meta repeatFlag
	fs.StringVar(&r.Project, "project", mneme.DefaultProject, "project the memory belongs to")
	fs.StringVar(&typ, "type", "semantic", "episodic (an event), semantic (a fact) or procedural (a how-to)")
	fs.StringVar(&r.Kind, "kind", "note", "free subtype: note, decision, learning, handoff, finding, …")
	fs.StringVar(&r.Title, "title", "", "short title")
	fs.Var(&tags, "tags", "tags, comma-separated")
	fs.StringVar(&r.Source, "source", "", "where it came from: a URI or a path")
	fs.StringVar(&r.OccurredAt, "at", "", "when it happened (RFC 3339 or a date); for episodic memories")
	fs.StringVar(&r.TTL, "ttl", "", "forget after this long: 90m, 72h, 30d, 2w")
	fs.StringVar(&r.Key, "key", "", "topic key: a new memory with the same key supersedes the old one")
	fs.StringVar(&status, "status", "active", "active, draft, validated or published")
	fs.StringVar(&sens, "sensitivity", "internal", "public, internal or secret (secret is never shown without --clearance secret)")
	fs.StringVar(&prov, "provenance", "", "verified, cited, assumed or cached")
	fs.Var(&meta, "meta", "metadata key=value (repeatable)")
	fs.StringVar(&r.SessionID, "session", "", "session id")
	fs.StringVar(&r.RunID, "run", "", "run id")
	fs.StringVar(&r.Speaker, "speaker", "", "who said it")
	fs.BoolVar(&r.Redact, "redact", false, "mask credentials found in any field (text, title, tags, key, source, meta, …) instead of refusing")
	fs.BoolVar(&r.RequireEmbedding, "require-embedding", false, requireEmbeddingUsage)
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if r.Text, err = a.readText(pos); err != nil {
		return err
	}
	r.Type, r.Status, r.Provenance, r.Sensitivity = mneme.Type(typ), mneme.Status(status), mneme.Provenance(prov), mneme.Sensitivity(sens)
	r.Tags = tags
	if r.Meta, err = mneme.MetaFromPairs(meta); err != nil {
		return err
	}
	unsetDefaults(fs, &r)
	// Validate before opening the store, so bad input never creates a home.
	if _, err := r.Record(time.Now().UTC()); err != nil {
		return err
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := eng.RememberRequests(a.ctx, []mneme.RememberRequest{r})
	if err != nil {
		return err
	}
	a.notePending(res)
	if a.json {
		return a.printJSON(res)
	}
	switch {
	case res.Inserted > 0:
		fmt.Fprintf(a.stdout, "remembered %s\n", res.ID)
	case res.Updated > 0:
		fmt.Fprintf(a.stdout, "updated %s (same text, new metadata)\n", res.ID)
	default:
		fmt.Fprintf(a.stdout, "already remembered as %s (duplicate skipped)\n", res.ID)
	}
	if res.Superseded > 0 {
		fmt.Fprintf(a.stdout, "superseded %d older memory with key %q\n", res.Superseded, r.Key)
	}
	return nil
}

// unsetDefaults clears the fields whose flags were not given: their
// defaults are the Engine's, and a memory already stored keeps its own
// values for them.
func unsetDefaults(fs *flag.FlagSet, r *mneme.RememberRequest) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["kind"] {
		r.Kind = ""
	}
	if !given["type"] {
		r.Type = ""
	}
	if !given["status"] {
		r.Status = ""
	}
	if !given["sensitivity"] {
		r.Sensitivity = ""
	}
}

// readText returns the positional text, or standard input for "-" or when
// no text is given and input is piped.
func (a *app) readText(pos []string) (string, error) {
	if len(pos) > 0 && !(len(pos) == 1 && pos[0] == "-") {
		return strings.Join(pos, " "), nil
	}
	if len(pos) == 0 && isTerminal(a.stdin) {
		return "", mneme.Invalid("no text given: pass it as an argument, or pipe it with -")
	}
	b, err := a.readInput("-")
	return string(b), err
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
