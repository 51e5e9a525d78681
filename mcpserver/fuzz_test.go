package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

// fuzzTools are the tools FuzzToolArguments calls.
var fuzzTools = []string{"remember", "recall", "get", "list", "update", "forget", "promote", "prune"}

// FuzzToolArguments calls each tool with arbitrary JSON arguments through a
// real client and server over in-memory transports: the server never
// panics; a call answers with a result or a tool error carrying one of
// mneme's codes (bad arguments are EINVALID), never a protocol error; and
// the session still answers a ping afterwards.
func FuzzToolArguments(f *testing.F) {
	s, err := sqlite.Open(context.Background(), f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	em, err := hash.New(32)
	if err != nil {
		f.Fatal(err)
	}
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := New(eng, testInfo).Connect(ctx, st, nil); err != nil {
		f.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { cs.Close() })
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		if !json.Valid(args) {
			return // the client would not send it; the stdio transport's own fuzz target covers bad JSON
		}
		name := fuzzTools[int(tool)%len(fuzzTools)]
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: protocol error %v", name, args, err)
		}
		if res.IsError {
			code, _ := res.Meta["code"].(string)
			if !slices.Contains(codes, code) {
				t.Fatalf("%s %s: tool error without a known code: %+v", name, args, res)
			}
		}
		if err := cs.Ping(ctx, nil); err != nil {
			t.Fatalf("ping after %s %s: %v", name, args, err)
		}
	})
}
