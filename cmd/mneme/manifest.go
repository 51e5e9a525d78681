package main

import (
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/manifest"
)

func init() {
	commands["manifest"] = command{usage: "manifest", summary: "print service discovery JSON: version, capabilities, commands, MCP tools and resources, HTTP routes and the JSON Schema of every request and response", run: runManifest}
}

// commandSchemas name the schemas of a command's JSON request and its
// --json output.
var commandSchemas = map[string][2]string{
	"remember": {"RememberRequest", "WriteResult"}, "recall": {"RecallRequest", "RecallResponse"},
	"context": {"ContextRequest", "ContextResponse"}, "forget": {"", "ForgetResult"}, "stats": {"", "Stats"},
	"get": {"", "Record"}, "import": {"Record", "WriteResult"}, "export": {"", "Record"}, "doctor": {"", "DoctorReport"},
	"vault export": {"", "VaultExportResult"}, "vault import": {"", "VaultImportResult"}, "manifest": {"", "ServiceManifest"},
}

func runManifest(a *app, args []string) error {
	fs := a.bareFlags()
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	var cmds []manifest.Command
	for _, set := range []map[string]command{commands, subcommands} {
		for name, c := range set {
			s := commandSchemas[name]
			cmds = append(cmds, manifest.Command{Name: name, Usage: c.usage, Summary: c.summary, Request: s[0], Response: s[1]})
		}
	}
	slices.SortFunc(cmds, func(x, y manifest.Command) int { return strings.Compare(x.Name, y.Name) })
	m, err := manifest.Build(a.ctx, version(), cmds)
	if err != nil {
		return &mneme.Error{Code: mneme.EINTERNAL, Message: "list the MCP tools: " + mneme.ErrorMessage(err)}
	}
	return a.printJSON(m) // JSON with or without --json: it is for programs
}
