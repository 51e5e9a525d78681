package mcpserver

import (
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
)

// AllTools are the tools mneme serves, in the order of tools/list.
var AllTools = []string{"remember", "recall", "context", "get", "forget", "ops",
	"list", "update", "link", "ground", "answer", "context_evidence", "summarize", "promote", "prune", "sync", "code_context"}

// DefaultTools are the tools served when the configuration names none:
// the ones an agent needs on most turns. Each tool's definition costs
// every agent tokens on every turn (see ToolCosts), so the rest are
// opt-in (mcp.tools in config.json).
var DefaultTools = []string{"remember", "recall", "context", "get", "forget", "ops"}

// SelectTools checks a choice of tools: "all", tool names, and "default"
// for DefaultTools. None (nil) is DefaultTools; an empty list, or a name
// mneme does not serve, is an error that lists the names.
func SelectTools(names []string) ([]string, error) {
	if names == nil {
		return DefaultTools, nil
	}
	if len(names) == 0 {
		return nil, mneme.Invalid("the tool list is empty: name tools (%s), \"default\" or \"all\"", strings.Join(AllTools, ", "))
	}
	var want []string
	for _, n := range names {
		switch {
		case n == "all":
			want = append(want, AllTools...)
		case n == "default":
			want = append(want, DefaultTools...)
		case slices.Contains(AllTools, n):
			want = append(want, n)
		default:
			return nil, mneme.Invalid("%q is not a tool of mneme: use %s, \"default\" or \"all\"", mneme.Clip(n), strings.Join(AllTools, ", "))
		}
	}
	var out []string
	for _, n := range AllTools { // in the listing's order, each once
		if slices.Contains(want, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// toolSet is which tools a server serves (on) and which it removes (off).
type toolSet struct{ on, off []string }

// served is the tool set of Info.Tools (checked by SelectTools before).
func served(names []string) toolSet {
	if names == nil {
		names = DefaultTools
	}
	var ts toolSet
	for _, n := range AllTools {
		if slices.Contains(names, n) {
			ts.on = append(ts.on, n)
		} else {
			ts.off = append(ts.off, n)
		}
	}
	return ts
}
