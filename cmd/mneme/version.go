package main

import (
	"fmt"

	"github.com/mneme-ai/mneme/embed/minilm"
	"runtime/debug"
	"strings"
)

func init() {
	commands["version"] = command{usage: "version", summary: "print the version (also: mneme --version)", run: runVersion}
}

func runVersion(a *app, args []string) error {
	if err := a.parseFlags(a.bareFlags(), args); err != nil {
		return err
	}
	v := version()
	if a.json {
		return a.printJSON(map[string]any{"version": v, "model_embedded": minilm.Embedded()})
	}
	fmt.Fprintln(a.stdout, "mneme", v)
	if minilm.Embedded() {
		fmt.Fprintln(a.stdout, "model:", minilm.Name, "embedded ("+minilm.Package+")")
	} else {
		fmt.Fprintln(a.stdout, "model:", minilm.Name, "not embedded (`mneme model fetch` installs it)")
	}
	return nil
}

// version is the version of the running binary (see versionOf).
func version() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf is the module version the binary was built from (what `go
// install …@v1.2.3` records, or the pseudo-version go build stamps from
// the checkout). A build without one, "(devel)", reports the commit it was
// built from when that was recorded: "devel 86df276 2026-11-24 (dirty)";
// else just "devel".
func versionOf(bi *debug.BuildInfo) string {
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, date string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			date, _, _ = strings.Cut(s.Value, "T")
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel " + rev[:min(len(rev), 7)]
	if date != "" {
		v += " " + date
	}
	if dirty {
		v += " (dirty)"
	}
	return v
}
