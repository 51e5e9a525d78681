package setup

import "path/filepath"

// host is one agent host's configuration: where its hook file and MCP
// server list live, the events mneme hooks, and the shape of a handler.
type host struct {
	name string
	// hooksFile and mcpFile are relative to the project directory (project)
	// or to the user's home directory (user).
	hooksFile, mcpFile func(project bool) string
	events             []string
	matcher            map[string]string // events whose groups take a matcher
	flat               bool              // Cursor: an event lists handlers, not groups
	handler            func(cmd string) *object
	mcpTOML            bool // Codex: config.toml's [mcp_servers.mneme]
	mcpEntry           func(bin string, args []string) *object
	version            bool // Cursor: "version": 1 at the top
}

func file(projectPath, userPath string) func(bool) string {
	return func(project bool) string {
		if project {
			return filepath.FromSlash(projectPath)
		}
		return filepath.FromSlash(userPath)
	}
}

func commandHandler(timeout int, name bool) func(string) *object {
	return func(cmd string) *object {
		o := newObject()
		if name {
			o.set("name", "mneme")
		}
		o.set("type", "command")
		o.set("command", cmd)
		o.set("timeout", timeout)
		return o
	}
}

func stdioEntry(typed bool) func(string, []string) *object {
	return func(bin string, args []string) *object {
		o := newObject()
		if typed {
			o.set("type", "stdio")
		}
		o.set("command", bin)
		o.set("args", args)
		return o
	}
}

// hosts follow each host's documentation (see hook/testdata/README.md
// and the fixtures' READMEs for the versions read).
var hosts = map[string]host{
	// Claude Code: settings.json "hooks" (event → matcher groups →
	// handlers, timeout in seconds); MCP servers in .mcp.json (project)
	// or ~/.claude.json (user).
	"claude-code": {
		name: "claude-code", hooksFile: file(".claude/settings.json", ".claude/settings.json"),
		mcpFile: file(".mcp.json", ".claude.json"),
		events:  []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd"},
		matcher: map[string]string{"PostToolUse": "*", "PostToolUseFailure": "*"},
		handler: commandHandler(10, false), mcpEntry: stdioEntry(true),
	},
	// Codex CLI: hooks.json, the same layout; it refuses unknown keys and
	// skips async handlers, so a handler is type, command and timeout
	// only. MCP servers in config.toml.
	"codex": {
		name: "codex", hooksFile: file(".codex/hooks.json", ".codex/hooks.json"),
		mcpFile: file(".codex/config.toml", ".codex/config.toml"), mcpTOML: true,
		events:  []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact"},
		handler: commandHandler(10, false),
	},
	// Gemini CLI: settings.json "hooks" (timeout in milliseconds) and
	// "mcpServers" in the same file.
	"gemini": {
		name: "gemini", hooksFile: file(".gemini/settings.json", ".gemini/settings.json"),
		mcpFile: file(".gemini/settings.json", ".gemini/settings.json"),
		events:  []string{"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"},
		handler: commandHandler(10000, true), mcpEntry: stdioEntry(false),
	},
	// Cursor: hooks.json {"version": 1, "hooks": {camelCaseEvent:
	// [{"command"}]}}; MCP servers in mcp.json.
	"cursor": {
		name: "cursor", hooksFile: file(".cursor/hooks.json", ".cursor/hooks.json"),
		mcpFile: file(".cursor/mcp.json", ".cursor/mcp.json"), flat: true, version: true,
		events: []string{"sessionStart", "beforeSubmitPrompt", "postToolUse", "postToolUseFailure", "stop", "sessionEnd", "preCompact"},
		handler: func(cmd string) *object {
			o := newObject()
			o.set("command", cmd)
			return o
		},
		mcpEntry: stdioEntry(false),
	},
}
