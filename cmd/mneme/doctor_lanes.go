package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/embed/minilm/fetch"
	"github.com/mneme-ai/mneme/lanes"
)

// capabilities are the checks of what the home is set up for beyond its
// store: the shared store, an LLM, the built-in model, code memory. One
// not set up is Absent (its lane is unavailable; nothing is wrong).
func (a *app) capabilities() []check {
	c, err := a.config()
	if err != nil {
		return nil // the config check already failed
	}
	var out []check
	if c.StoreScheme() == "sqlite" {
		out = append(out, check{Name: "shared store", OK: true, Absent: true, Detail: "the store is SQLite, on this machine (store postgres shares one)"})
	} else {
		out = append(out, check{Name: "shared store", OK: true, Detail: "the store is PostgreSQL, shared"})
	}
	if l := c.LLM; l.Provider != "" {
		out = append(out, check{Name: "llm", OK: true, Detail: fmt.Sprintf("%s %s configured (not called: summarize --strategy auto falls back when it does not answer)", l.Provider, l.Model)})
	} else {
		out = append(out, check{Name: "llm", OK: true, Absent: true, Detail: "none configured (config.json llm): summaries are extractive"})
	}
	m := check{Name: "model", OK: true, Detail: "the built-in model is installed in " + c.ModelDir}
	if minilm.Embedded() {
		m.Detail = "the built-in model is compiled into this binary"
	} else if !fetch.Present(c.ModelDir) {
		m = check{Name: "model", OK: true, Absent: true, Detail: "the built-in model is not installed in " + c.ModelDir, Fix: "mneme model fetch"}
	}
	out = append(out, m)
	if _, err := c.CodeService(); err != nil {
		out = append(out, check{Name: "code", Detail: mneme.ErrorMessage(err), Fix: "fix code.roots in config.json"})
	} else {
		out = append(out, check{Name: "code", OK: true, Detail: fmt.Sprintf("code memory is available (%s for the servers)", mneme.Plural(len(c.File.Code.Roots), "root", "roots"))})
	}
	return out
}

// facts say which lanes the home needs, from its checks.
func facts(checks []check) lanes.Facts {
	var f lanes.Facts
	for _, c := range checks {
		switch c.Name {
		case "embedder":
			f.Embedder = !c.Absent
			// the built-in model answering, or failing to load
			f.Minilm = strings.HasPrefix(c.Detail, "minilm/") || strings.HasPrefix(c.Detail, "the built-in embedding model")
		case "shared store":
			f.Shared = !c.Absent
		case "llm":
			f.LLM = !c.Absent
		case "cache":
			f.Cache = !c.Absent
		}
	}
	return f
}

// report prints the checks and the lanes. It fails when a required lane is
// unavailable, or with strict when any check failed; a degraded lane does
// not fail (the caller decides).
func (a *app) report(checks []check, strict bool) error {
	for i := range checks {
		// The result cache is set up when it is on; off, or a store that
		// keeps none, it is absent (its lane unavailable, nothing wrong).
		if checks[i].Name == "cache" && checks[i].OK && !strings.HasPrefix(checks[i].Detail, "on,") {
			checks[i].Absent = true
		}
	}
	f := facts(checks)
	if f.Minilm { // the model is required: not installed is a failure
		for i := range checks {
			if checks[i].Name == "model" && checks[i].Absent {
				checks[i].OK, checks[i].Absent = false, false
			}
		}
	}
	failed := 0
	for i := range checks {
		checks[i].ID = lanes.CheckID(checks[i].Name)
		checks[i].Detail, checks[i].Fix = a.relPaths(checks[i].Detail), a.relPaths(checks[i].Fix)
		if !checks[i].OK {
			failed++
		}
	}
	ls := lanes.Evaluate(checks, f)
	blocked := lanes.Blocked(ls)
	bad := len(blocked) > 0 || strict && failed > 0
	if a.json {
		if err := a.printJSON(lanes.Report{Schema: lanes.Schema, OK: !bad, Checks: checks, Lanes: ls}); err != nil {
			return err
		}
	} else {
		a.printDoctor(checks, ls)
	}
	switch {
	case len(blocked) > 0:
		return mneme.Errorf(mneme.EUNAVAILABLE, "required %s unavailable: %s", plural(len(blocked), "lane is", "lanes are"), strings.Join(blocked, ", "))
	case bad:
		return mneme.Errorf(mneme.EUNAVAILABLE, "%d of %d checks failed", failed, len(checks))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (a *app) printDoctor(checks []check, ls []lanes.Lane) {
	for _, c := range checks {
		mark := "ok  "
		switch {
		case !c.OK:
			mark = "FAIL"
		case c.Absent:
			mark = "off "
		case c.Warn:
			mark = "warn"
		}
		fmt.Fprintf(a.stdout, "%s %-14s %s\n", mark, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(a.stdout, "     %-14s fix: %s\n", "", c.Fix)
		}
	}
	for _, l := range ls {
		need := "optional"
		if l.Required {
			need = "required"
		}
		line := fmt.Sprintf("lane %-22s %-11s %s", l.ID, l.Status, need)
		if len(l.DegradedCheckIDs) > 0 {
			line += " (" + strings.Join(l.DegradedCheckIDs, ", ") + ")"
		}
		fmt.Fprintln(a.stdout, line)
	}
}

// relPaths shows the data directory as <home>, the model directory as
// ~/… under the user's home directory, else as <model_dir>, and anything
// else under the user's home directory as ~/…: doctor's output goes into bug reports
// and logs, which need no machine's layout.
func (a *app) relPaths(s string) string {
	if s == "" {
		return s
	}
	if c, err := a.config(); err == nil && c.Home != "" {
		for _, h := range samePlace(c.Home) {
			s = strings.ReplaceAll(s, h, "<home>")
		}
	}
	u := a.getenv("HOME")
	if c, err := a.config(); err == nil && c.ModelDir != "" && (u == "" || !strings.HasPrefix(c.ModelDir, u+string(filepath.Separator))) {
		for _, m := range samePlace(c.ModelDir) {
			s = strings.ReplaceAll(s, m, "<model_dir>")
		}
	}
	if u != "" && u != "/" {
		for _, h := range samePlace(u) {
			s = strings.ReplaceAll(s, h+string(filepath.Separator), "~"+string(filepath.Separator))
			s = strings.ReplaceAll(s, h, "~")
		}
	}
	return s
}

// samePlace is dir as given, absolute, and with its symbolic links
// resolved: the spellings a message may use, longest first (so one that
// holds another is replaced whole).
func samePlace(dir string) []string {
	out := []string{dir}
	if abs, err := filepath.Abs(dir); err == nil && abs != dir {
		out = append(out, abs)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		out = append(out, real)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
