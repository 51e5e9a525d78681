// Package manifest is service discovery: what this mneme can do (commands,
// MCP tools and resources, HTTP routes) and the JSON Schema of every
// request and response it publishes (schemas/v1), for an orchestrator to
// read before it calls anything.
package manifest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/lanes"
	"github.com/mneme-ai/mneme/mcpserver"
	"github.com/mneme-ai/mneme/schemas"
)

// Schema names the manifest's format.
const Schema = "mneme.manifest/v1"

// Manifest is `mneme manifest`.
type Manifest struct {
	Schema  string `json:"schema"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// Capabilities are the readiness lanes `mneme doctor` reports, and
	// the features beyond them.
	Capabilities []string  `json:"capabilities"`
	Commands     []Command `json:"commands"`
	MCP          MCP       `json:"mcp"`
	HTTPRoutes   []Route   `json:"http_routes"`
	// ErrorSchema names the schema of every error: the CLI's with --json
	// (on stderr) and the HTTP API's.
	ErrorSchema string `json:"error_schema"`
	// Schemas are the published JSON Schemas by name (schemas/v1/NAME.json).
	Schemas map[string]json.RawMessage `json:"schemas"`
}

// Command is a CLI command; Request and Response name its schemas, when
// it reads a JSON request or writes JSON with --json.
type Command struct {
	Name     string `json:"name"`
	Usage    string `json:"usage"`
	Summary  string `json:"summary"`
	Request  string `json:"request,omitempty"`
	Response string `json:"response,omitempty"`
}

// MCP is what `mneme mcp` (and serve's /mcp) offers.
type MCP struct {
	Tools     []Tool     `json:"tools"`
	Resources []Resource `json:"resources"`
}

// Tool is an MCP tool with its input (and output) schema.
type Tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"input_schema"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

// Resource is an MCP resource, or a template of them (URI holds {vars}).
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// Route is an HTTP route of `mneme serve`; Request and Response name the
// OpenAPI component schemas of its bodies (the document is at
// /v1/openapi.json).
type Route struct {
	Method   string `json:"method"`
	Path     string `json:"path"`
	Summary  string `json:"summary,omitempty"`
	Request  string `json:"request,omitempty"`
	Response string `json:"response,omitempty"`
}

// features are capabilities that are not lanes.
var features = []string{"vault", "export-import", "ingest", "promote", "ground", "mcp-stdio", "mcp-http", "http-api"}

// Build is the manifest of this binary: version, and the CLI's commands
// (the CLI knows them).
func Build(ctx context.Context, version string, commands []Command) (*Manifest, error) {
	m := &Manifest{Schema: Schema, Name: "mneme", Version: version, Commands: commands,
		ErrorSchema: "ErrorEnvelope", Schemas: schemas.All()}
	m.Capabilities = append(lanes.IDs(), features...)
	var err error
	if m.MCP, err = mcpOffer(ctx, version); err != nil {
		return nil, err
	}
	m.HTTPRoutes = routes(httpapi.OpenAPI())
	return m, nil
}

// mcpOffer lists the MCP server's tools and resources, as a client sees
// them, over an in-memory connection (the server reads no store to list).
func mcpOffer(ctx context.Context, version string) (MCP, error) {
	srv := mcpserver.New(nil, mcpserver.Info{Version: version, Tools: mcpserver.AllTools})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return MCP{}, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "manifest", Version: version}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return MCP{}, err
	}
	defer cs.Close()
	out := MCP{Tools: []Tool{}, Resources: []Resource{}}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return out, err
		}
		in, _ := json.Marshal(t.InputSchema)
		tool := Tool{Name: t.Name, Description: t.Description, InputSchema: in}
		if t.OutputSchema != nil {
			tool.OutputSchema, _ = json.Marshal(t.OutputSchema)
		}
		out.Tools = append(out.Tools, tool)
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return out, err
		}
		out.Resources = append(out.Resources, Resource{URI: r.URI, Name: r.Name, Description: r.Description})
	}
	for r, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			return out, err
		}
		out.Resources = append(out.Resources, Resource{URI: r.URITemplate, Name: r.Name, Description: r.Description})
	}
	slices.SortFunc(out.Tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(out.Resources, func(a, b Resource) int { return strings.Compare(a.URI, b.URI) })
	return out, nil
}

// routes reads the HTTP routes from the OpenAPI document.
func routes(doc []byte) []Route {
	var d struct {
		Paths map[string]map[string]struct {
			Summary     string `json:"summary"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
			Responses map[string]struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"paths"`
	}
	_ = json.Unmarshal(doc, &d) // embedded, and tested to parse
	out := []Route{}
	for p, ops := range d.Paths {
		for method, op := range ops {
			r := Route{Method: strings.ToUpper(method), Path: p, Summary: op.Summary}
			r.Request = component(op.RequestBody.Content["application/json"].Schema.Ref)
			r.Response = component(op.Responses["200"].Content["application/json"].Schema.Ref)
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b Route) int { return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method) })
	return out
}

func component(ref string) string { return strings.TrimPrefix(ref, "#/components/schemas/") }
