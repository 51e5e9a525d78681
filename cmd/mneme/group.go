package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
)

// runGroup runs the subcommand args[0] of group, a command made of the
// subcommands names (registered in subcommands as "GROUP NAME", in the
// order help lists them), or prints the group's help.
func (a *app) runGroup(group string, names []string, args []string) error {
	if len(args) > 0 {
		if sub, ok := subcommands[group+" "+args[0]]; ok {
			a.name = group + " " + args[0]
			return sub.run(a, args[1:])
		}
		switch args[0] {
		case "-h", "-help", "--help", "help":
			cmd := commands[group]
			fmt.Fprintf(a.stdout, "Usage: mneme %s\n\n%s\n\nSubcommands:\n", cmd.usage, cmd.summary)
			for _, n := range names {
				summary, _, _ := strings.Cut(subcommands[group+" "+n].summary, "\n")
				fmt.Fprintf(a.stdout, "  %-8s %s\n", n, summary)
			}
			fmt.Fprintf(a.stdout, "\nRun `mneme %s SUBCOMMAND -h` for its flags.\n", group)
			return flag.ErrHelp
		}
	}
	a.json = hasJSONFlag(args)
	list := strings.Join(names, ", ")
	if i := strings.LastIndex(list, ", "); i >= 0 {
		list = list[:i] + " or " + list[i+2:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		hint := "(run `mneme " + group + " -h`)"
		if len(names) == 1 {
			hint = "(run `mneme " + group + " " + names[0] + " -h` for its flags)"
		}
		return mneme.Invalid("a subcommand is needed: %s %s", list, hint)
	}
	return mneme.Invalid("unknown %s subcommand %q: use %s (run `mneme %s -h`)", group, mneme.Clip(args[0]), list, group)
}
