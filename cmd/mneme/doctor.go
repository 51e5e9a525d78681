package main

import (
	"fmt"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["doctor"] = command{usage: "doctor", summary: "check the data directory, database, indexes and embedder, and say how to fix problems", run: runDoctor}
}

type check = mneme.HealthCheck

func runDoctor(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	return a.report(a.diagnose())
}

// diagnose runs the checks of the home: configuration, database, the
// store's own health (an optional role), embedder and vectors.
func (a *app) diagnose() []check {
	var checks []check
	add := func(name string, ok bool, detail, fix string) {
		checks = append(checks, check{Name: name, OK: ok, Detail: detail, Fix: fix})
	}
	c, err := a.config()
	if err != nil {
		add("config", false, mneme.ErrorMessage(err), "fix or remove config.json")
		return checks
	}
	eng, err := a.open(config.Records)
	if err != nil {
		fix := "choose a writable data directory with --home or MNEME_HOME"
		if c.StoreScheme() != "sqlite" {
			fix = "" // the message says what to fix on the server
		}
		add("database", false, mneme.ErrorMessage(err), fix)
		return checks
	}
	defer eng.Close()
	st, err := eng.Stats(a.ctx)
	if err != nil {
		add("database", false, mneme.ErrorMessage(err), "")
		return checks
	}
	add("database", true, fmt.Sprintf("%s (%s): %d memories in %d projects", c.Home, c.Describe(eng.Store()), st.Total, len(st.Projects)), "")
	if hc, ok := eng.Store().(mneme.HealthChecker); ok {
		states, err := hc.Health(a.ctx)
		if err != nil {
			add("indexes", false, mneme.ErrorMessage(err), "")
		}
		checks = append(checks, states...)
	}
	a.checkEmbedder(c, eng, add)
	return checks
}

// checkEmbedder reports the configured embedder, whether it answers, and
// whether the stored vectors are its own.
func (a *app) checkEmbedder(c *config.Config, eng *mneme.Engine, add func(string, bool, string, string)) {
	em, err := c.NewEmbedder(a.ctx, eng.Store())
	if err != nil {
		fix := "" // an unavailable provider's message says what to do
		if mneme.ErrorCode(err) == mneme.EINVALID {
			fix = "fix the embedder settings (--embedder, MNEME_EMBEDDER, config.json)"
		}
		add("embedder", false, mneme.ErrorMessage(err), fix)
		return
	}
	home, hasHome, _ := eng.Store().HomeEmbedder(a.ctx)
	if em == nil {
		detail := "none configured: memories are stored without vectors"
		if hasHome {
			detail += fmt.Sprintf(" (the stored vectors come from %s)", home.ID())
		}
		add("embedder", true, detail, "")
		return
	}
	info := em.Info()
	if _, err := em.Embed(a.ctx, []string{"mneme doctor"}); err != nil {
		add("embedder", false, fmt.Sprintf("%s: %s", info.ID(), mneme.ErrorMessage(err)), "")
		return
	}
	add("embedder", true, fmt.Sprintf("%s version %s, %d dimensions: answers", info.ID(), info.Version, info.Dim), "")
	if hasHome && (home.ID() != info.ID() || home.Version != info.Version || home.Dim != info.Dim) {
		add("vectors", false, fmt.Sprintf("stored vectors come from %s (%d dimensions), not the configured %s (%d dimensions)", home.ID(), home.Dim, info.ID(), info.Dim), "mneme reindex")
		return
	}
	st, _ := eng.Stats(a.ctx)
	if !hasHome && st.Total > st.Secret {
		add("vectors", false, "no memory has a vector yet", "mneme reindex")
		return
	}
	if missing, err := eng.Store().Unembedded(a.ctx, 1); err == nil && len(missing) > 0 {
		add("vectors", false, "some memories have no vector yet", "mneme reindex")
		return
	}
	add("vectors", true, "every memory that may be embedded has a vector", "")
}

// report prints the checks and fails when one did.
func (a *app) report(checks []check) error {
	failed := 0
	for _, c := range checks {
		if !c.OK {
			failed++
		}
	}
	if a.json {
		if err := a.printJSON(map[string]any{"ok": failed == 0, "checks": checks}); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			mark := "ok  "
			if !c.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(a.stdout, "%s %-14s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(a.stdout, "     %-14s fix: %s\n", "", c.Fix)
			}
		}
	}
	if failed > 0 {
		return mneme.Errorf(mneme.EUNAVAILABLE, "%d of %d checks failed", failed, len(checks))
	}
	return nil
}
