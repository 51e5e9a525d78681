package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/hook/setup"
)

func init() {
	commands["setup"] = command{
		usage:   "setup HOST [--project-dir DIR] [--dry-run] [--remove]  (HOST: " + strings.Join(setup.Hosts(), ", ") + ")",
		summary: "connect an agent host: add mneme's hooks and MCP server to its config (merged; --remove takes them out)",
		run:     runSetup,
	}
}

func runSetup(a *app, args []string) error {
	fs := a.flags()
	project := fs.String("project-dir", "", "the project's directory: write its config files instead of your user-level ones")
	dry := fs.Bool("dry-run", false, "print the files as they would be, write nothing")
	remove := fs.Bool("remove", false, "take mneme's hooks and MCP server out again")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("setup takes one host: %s", strings.Join(setup.Hosts(), ", "))
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	o := setup.Options{Host: pos[0], Remove: *remove}
	if o.UserHome, err = os.UserHomeDir(); err != nil {
		return mneme.Invalid("cannot find your home directory: %v", err)
	}
	if o.Bin, err = os.Executable(); err != nil {
		return mneme.Invalid("cannot find this binary: %v", err)
	}
	if o.DataHome, err = filepath.Abs(c.Home); err != nil {
		return err
	}
	if *project != "" {
		if o.ProjectDir, err = filepath.Abs(*project); err != nil {
			return err
		}
		if fi, err := os.Stat(o.ProjectDir); err != nil || !fi.IsDir() {
			return mneme.Invalid("--project-dir %s is not a directory", mneme.Clip(*project))
		}
	}
	changes, err := setup.Plan(o)
	if err != nil {
		return err
	}
	if *dry {
		for _, ch := range changes {
			fmt.Fprintf(a.stdout, "# %s\n%s", ch.Path, ch.After)
		}
		return nil
	}
	if err := setup.Apply(changes); err != nil {
		return mneme.Invalid("setup %s: %v", o.Host, err)
	}
	verb := "connected: mneme's hooks and MCP server are in"
	if o.Remove {
		verb = "disconnected: mneme's hooks and MCP server are out of"
	}
	for _, ch := range changes {
		fmt.Fprintf(a.stdout, "%s %s\n", verb, ch.Path)
	}
	return nil
}
