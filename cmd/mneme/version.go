package main

import (
	"fmt"
	"runtime/debug"
)

func init() {
	commands["version"] = command{usage: "version", summary: "print the version", run: runVersion}
}

func runVersion(a *app, args []string) error {
	if err := a.parseFlags(a.flags(), args); err != nil {
		return err
	}
	v := version()
	if a.json {
		return a.printJSON(map[string]string{"version": v})
	}
	fmt.Fprintln(a.stdout, "mneme", v)
	return nil
}

// version is the module version the binary was built from, or "devel".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
