package main

import (
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/cache"
	"github.com/mneme-ai/mneme/config"
)

const cacheUsage = "cache stats | cache prune [--expired] [--kind K] [--dry-run] | cache clear --kind K"

func init() {
	commands["cache"] = command{usage: cacheUsage,
		summary: "inspect and prune the result cache: `cache stats`, `cache prune`, `cache clear`", run: func(a *app, args []string) error {
			return a.runGroup("cache", []string{"stats", "prune", "clear"}, args)
		}}
	subcommands["cache stats"] = command{usage: "cache stats", summary: "count the cached results by kind, with each kind's TTL", run: runCacheStats}
	subcommands["cache prune"] = command{usage: "cache prune [--expired] [--kind K] [--dry-run]",
		summary: "delete the cached results selected: expired ones, those of a kind, or both (a selection is required)", run: runCachePrune}
	subcommands["cache clear"] = command{usage: "cache clear --kind K", summary: "delete every cached result of a kind", run: runCacheClear}
}

func runCacheStats(a *app, args []string) error {
	fs := a.flags()
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	st, err := cache.StatsOf(a.ctx, eng)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(st)
	}
	state := "on"
	if !st.Enabled {
		state = "off"
	}
	fmt.Fprintf(a.stdout, "cache %s: %s, %d bytes\n", state, mneme.Plural(st.Entries, "entry", "entries"), st.Bytes)
	for _, k := range st.Kinds {
		fmt.Fprintf(a.stdout, "  %-17s %6d entries (%d expired)  ttl %s\n", k.Kind, k.Entries, k.Expired, k.TTL)
	}
	return nil
}

func runCachePrune(a *app, args []string) error {
	fs := a.flags()
	expired := fs.Bool("expired", false, "select the entries whose TTL ran out")
	kind := fs.String("kind", "", "select the entries of this kind: "+kindList())
	dry := fs.Bool("dry-run", false, "count what would be deleted, delete nothing")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	return a.prune(mneme.CacheSelection{Kind: *kind, Expired: *expired}, *dry)
}

func runCacheClear(a *app, args []string) error {
	fs := a.flags()
	kind := fs.String("kind", "", "the kind to clear: "+kindList())
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *kind == "" {
		return mneme.Invalid("clear needs {{kind}}: one of %s", kindList())
	}
	return a.prune(mneme.CacheSelection{Kind: *kind}, false)
}

// prune checks sel before it opens the store, then prunes.
func (a *app) prune(sel mneme.CacheSelection, dry bool) error {
	if err := sel.Check(); err != nil {
		return err
	}
	eng, err := a.open(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := cache.Prune(a.ctx, eng, sel, dry)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	verb := "deleted"
	if dry {
		verb = "would delete"
	}
	fmt.Fprintf(a.stdout, "%s %s\n", verb, mneme.Plural(res.Deleted, "cache entry", "cache entries"))
	return nil
}

func kindList() string {
	s := ""
	for i, k := range mneme.CacheKinds {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}
