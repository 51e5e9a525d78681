package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

// arguments checks a tool call's parameter names and lifts its options
// object to the top level, before the SDK validates the arguments against
// the schema. Aliases and options are accepted without being published
// (see inputSchema), so the schema cannot refuse unknown names itself.
// A refusal goes to the tool's handler in the context (see add), so that
// the SDK answers it as every other tool error.
func arguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !ok || method != "tools/call" || toolTypes[p.Name] == nil {
			return next(ctx, method, req)
		}
		args, err := lift(p.Name, toolTypes[p.Name], p.Arguments)
		if err != nil {
			return next(context.WithValue(ctx, argumentError{}, err), method, req)
		}
		p.Arguments = args
		return next(ctx, method, req)
	}
}

// argumentError is the context key of the error arguments found.
type argumentError struct{}

// lift returns raw with options.X moved to X, or the error naming an
// unknown parameter or option, or one given both ways with different
// values. Arguments that are not an object are the SDK's to refuse.
func lift(tool string, t reflect.Type, raw json.RawMessage) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return raw, nil
	}
	known := roles(t)
	var unknown []string
	for k := range top {
		if _, ok := known[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, mneme.Invalid("unknown parameters %s; %s", mneme.Clip(fmt.Sprintf("%q", unknown)), takes(tool, t))
	}
	o, ok := top["options"]
	if !ok {
		return raw, nil
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(o, &opts); err != nil {
		return nil, mneme.Invalid("options must be an object; %s", takes(tool, t))
	}
	delete(top, "options")
	for _, k := range sortedKeys(opts) {
		if known[k] != "option" {
			return nil, mneme.Invalid("options.%s is not an option; %s", mneme.Clip(k), takes(tool, t))
		}
		if prev, ok := top[k]; ok && !sameJSON(prev, opts[k]) {
			return nil, mneme.Invalid("%s and options.%s are the same parameter with different values: send only options.%s", k, k, k)
		}
		top[k] = opts[k]
	}
	return json.Marshal(top)
}

// roles maps each name a tool accepts to how it is published: "" (a
// documented parameter), "alias" or "option"; options is the object
// holding the options, when there are any.
func roles(t reflect.Type) map[string]string {
	out := map[string]string{}
	for _, sf := range fields(t) {
		if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = sf.Tag.Get("mcp")
			if out[name] == "option" {
				out["options"] = ""
			}
		}
	}
	return out
}

// takes says what a tool takes, for messages: its documented parameters,
// then its options.
func takes(tool string, t reflect.Type) string {
	var params, opts []string
	for _, sf := range fields(t) {
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch sf.Tag.Get("mcp") {
		case "":
			params = append(params, name)
		case "option":
			opts = append(opts, name)
		}
	}
	s := tool + " takes " + strings.Join(params, ", ")
	if len(opts) > 0 {
		s += ", options {" + strings.Join(opts, ", ") + "}"
	}
	return s
}

func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
