package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBoundedErrors: a huge bad value gives a tool error (or a resource
// error) that quotes at most its start, whether the engine or the SDK's
// schema validation refuses it.
func TestBoundedErrors(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	mb := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name, tool string
		args       args
		want       string
	}{
		{"project", "remember", args{"text": "x", "project": mb}, "is not a valid name"},
		{"tag", "remember", args{"text": "x", "tags": mb}, "is longer than"},
		{"occurred_at", "remember", args{"text": "x", "occurred_at": mb}, "is not a time"},
		{"ttl", "remember", args{"text": "x", "ttl": mb}, "is not a positive duration"},
		{"type enum", "remember", args{"text": "x", "type": mb}, "EINVALID"},
		{"unknown parameter", "remember", args{"text": "x", mb: 1}, "EINVALID"},
		{"recall since", "recall", args{"query": "x", "since": mb}, "is not a time"},
		{"recall project", "recall", args{"query": "x", "project": mb}, "is not a valid name"},
		{"recall mode enum", "recall", args{"query": "x", "mode": mb}, "EINVALID"},
		{"recall half_life", "recall", args{"query": "x", "half_life": mb}, "is not a positive duration"},
		{"list cursor", "list", args{"cursor": mb}, "cursor"},
		{"list tags", "list", args{"tags": []string{mb}}, "is longer than"},
		{"get id", "get", args{"id": mb}, "is not a record id"},
		{"update status", "update", args{"id": mb, "ttl": mb}, "EINVALID"},
		{"forget before", "forget", args{"before": mb}, "is not a time"},
		{"forget ids", "forget", args{"ids": mb}, "is not a record id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, c.tool, c.args)
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, c.want) {
				t.Fatalf("want a tool error with %q: %.300s", c.want, msg)
			}
			if len(msg) > 1024 {
				t.Fatalf("a %d-byte error (want under 1 KB): %.300s…", len(msg), msg)
			}
		})
	}
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://projects/" + mb + "/tags"})
	if err == nil || !strings.Contains(err.Error(), "is not a valid name") || len(err.Error()) > 1024 {
		t.Fatalf("tags of a huge project: %.300v (%d bytes)", err, len(err.Error()))
	}
}
