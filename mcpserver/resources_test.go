package mcpserver

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourceErrorCodes: a resource read that fails says why with a
// JSON-RPC code (not 0) and mneme's code first in the message.
func TestResourceErrorCodes(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://projects/Not%20A%20Project/tags"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || len(werr.Message) < 9 || werr.Message[:9] != "EINVALID:" {
		t.Fatalf("bad project in a resource URI: %#v", err)
	}
}
