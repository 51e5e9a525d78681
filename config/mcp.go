package config

import (
	"encoding/json"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/mcpserver"
)

// MCP configures the MCP servers (`mneme mcp`, and /mcp of `mneme serve`).
type MCP struct {
	// Tools are the tools served: "all", or a list of tool names ("default"
	// stands for mcpserver.DefaultTools). Left out: the default tools.
	Tools ToolList `json:"tools,omitempty"`
}

// ToolList is mcp.tools: the string "all" or a list of names.
type ToolList []string

// UnmarshalJSON takes "all" or an array of strings.
func (l *ToolList) UnmarshalJSON(data []byte) error {
	var one string
	if string(data) != "null" && json.Unmarshal(data, &one) == nil {
		if one != "all" {
			return mneme.Invalid("mcp.tools %q is not a list: give \"all\" or a list of tool names like [\"default\", \"summarize\"]", mneme.Clip(one))
		}
		*l = ToolList{"all"}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil || many == nil {
		return mneme.Invalid("mcp.tools must be \"all\" or a list of tool names, not %s", mneme.Clip(string(data)))
	}
	*l = many
	return nil
}

// MarshalJSON writes "all" back as the string it was.
func (l ToolList) MarshalJSON() ([]byte, error) {
	if len(l) == 1 && l[0] == "all" {
		return json.Marshal("all")
	}
	return json.Marshal([]string(l))
}

// MCPTools are the tools the MCP servers serve (mcp.tools checked): a
// name mneme does not serve is an error at start, never a smaller server.
func (c *Config) MCPTools() ([]string, error) { return c.File.mcpTools() }

func (f File) mcpTools() ([]string, error) {
	tools, err := mcpserver.SelectTools(f.MCP.Tools)
	if err != nil {
		return nil, mneme.Prefix(FileName+": mcp.tools", err)
	}
	return tools, nil
}
