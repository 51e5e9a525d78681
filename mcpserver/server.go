// Package mcpserver serves mneme to agents over the Model Context Protocol:
// tools to remember, recall, get, list and forget, and resources describing
// the store. Tools take the same requests as the CLI and the HTTP API and
// give the same results; a bearer token's scope (internal/access) limits
// what an HTTP caller may read and write.
package mcpserver

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/codemem"
	"github.com/mneme-ai/mneme/internal/access"
)

// Info describes the server for the health and settings resources.
type Info struct {
	Version  string
	Store    string // like "sqlite /path/mneme.db"
	Embedder string // like "minilm/all-MiniLM-L6-v2 (384 dimensions)"
	Settings any    // the effective configuration, secrets removed
	// Code serves the code_context tool (codemem.Options.Restrict to
	// code.roots); nil refuses every repository.
	Code *codemem.Service
	// Tools are the tools served, checked by SelectTools; nil serves
	// DefaultTools.
	Tools []string
}

// EFORBIDDEN is the code of a call the caller's token does not allow (as
// in the HTTP API).
const EFORBIDDEN = mneme.EFORBIDDEN

const instructions = `mneme is your long-term memory: what you remember here outlives this conversation.
Remember (tool remember) as soon as you learn something worth keeping, one self-contained memory each:
- a decision and the reason for it
- a fact about the project or the user
- a how-to that worked (type procedural)
- a preference the user states
- the outcome of a task (type episodic)
Recall (tool recall) before starting a task, before asking the user something they may have told you already,
and when the user refers to earlier work. Quote the hits' context lines; get fetches one memory in full.
Use the repository or topic as the project, and a few tags; give a key (like "db-version") to a fact that may
change: a newer memory with the same key supersedes the older one.`

type server struct {
	eng  *mneme.Engine
	info Info
}

// New returns the MCP server over eng.
func New(eng *mneme.Engine, info Info) *mcp.Server {
	s := &server{eng: eng, info: info}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mneme", Version: info.Version}, &mcp.ServerOptions{Instructions: instructions})
	s.addTools(srv)
	srv.RemoveTools(served(info.Tools).off...)
	s.addResources(srv)
	srv.AddReceivingMiddleware(argumentErrors, arguments, scoped)
	return srv
}

// scoped puts the caller's scope in the context of every request, for the
// Engine to enforce.
func scoped(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		return next(mneme.WithScope(ctx, scopeOf(req)), method, req)
	}
}

// scopeOf is what the caller may do: over HTTP, its bearer token's scope;
// over stdio (no token, or no Extra at all) the open scope.
func scopeOf(req mcp.Request) mneme.Scope {
	if extra := req.GetExtra(); extra != nil {
		return access.FromInfo(extra.TokenInfo)
	}
	return access.Open
}

// fail is err as a tool error: the code first, so an agent (or a program)
// tells a provider outage (EUNAVAILABLE) from a bad parameter (EINVALID).
func fail(err error) error {
	if err == nil {
		return nil
	}
	return errors.New(mneme.ErrorCode(err) + ": " + mneme.ErrorMessage(err))
}

var propertyRE = regexp.MustCompile(`validating /properties/([a-z_]+): `)

// sdkMessages rephrases the SDK's schema validation errors.
var sdkMessages = strings.NewReplacer(`validating "arguments": `, "",
	"validating root: unexpected additional properties", "unknown parameters", "validating root: ", "")

var codes = []string{mneme.EINVALID, mneme.ENOTFOUND, mneme.ECONFLICT, mneme.EUNAVAILABLE, mneme.EINTERNAL, EFORBIDDEN}

// argumentErrors completes tool errors. The SDK checks arguments against
// the input schema before a handler runs and answers with its own message;
// that is bad input, so it gets the EINVALID code and the tool's parameters.
// Every tool error's code also goes in the result's _meta, for programs
// (structuredContent would have to match the tool's output schema).
func argumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		tr, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !tr.IsError || len(tr.Content) != 1 {
			return res, err
		}
		tc, ok := tr.Content[0].(*mcp.TextContent)
		if !ok {
			return res, err
		}
		code, _, _ := strings.Cut(tc.Text, ": ")
		if !slices.Contains(codes, code) {
			code = mneme.EINVALID
			tc.Text = "EINVALID: " + mneme.ClipMessage(propertyRE.ReplaceAllString(sdkMessages.Replace(tc.Text), "$1: "))
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && toolTypes[p.Name] != nil {
				tc.Text += "; " + takes(p.Name, toolTypes[p.Name])
			}
		}
		tr.Meta = mcp.Meta{"code": code}
		return res, err
	}
}
