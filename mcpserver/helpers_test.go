package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// clock starts at a fixed time and moves one second per reading, so
// records get distinct, reproducible times (and list order).
func clock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// newEngine is a real engine on a temporary SQLite home, with the hashing
// embedder (if vectors) so the vector lane runs without a model.
func newEngine(t *testing.T, vectors bool) (*mneme.Engine, func() time.Time) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	now := clock()
	opts := []mneme.Option{mneme.WithClock(now)}
	if vectors {
		em, err := hash.New(64)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, mneme.WithEmbedder(em))
	}
	return mneme.NewEngine(s, opts...), now
}

var testInfo = Info{Version: "test", Tools: AllTools, Store: "sqlite /tmp/mneme.db", Embedder: "hash/fnv1a-words (64 dimensions)",
	Settings: map[string]any{"embedder": map[string]any{"provider": "hash"}, "server": map[string]any{"tokens": []any{}}}}

// connect serves eng over in-memory transports to a real client; log gets
// every message the client writes and reads.
func connect(t *testing.T, eng *mneme.Engine, now func() time.Time, log *bytes.Buffer) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := New(eng, testInfo).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	var tr mcp.Transport = ct
	if log != nil {
		tr = &mcp.LoggingTransport{Transport: ct, Writer: log}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its result; protocol errors fail the test.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return res
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

var (
	uuidRE    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timeRE    = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	tookRE    = regexp.MustCompile(`("(?:took_ms|ms)\\?":\s*)[0-9.e+-]+`)
	cursorRE  = regexp.MustCompile(`("next_cursor\\?":\s*\\?")[^"\\]+`)
	numberRE  = regexp.MustCompile(`(:\s*)(-?\d+\.\d{5,})`)
	logLineRE = regexp.MustCompile(`^(read|write): (.*)$`)
)

// transcript turns a LoggingTransport log into the golden form: each
// message indented, "→" for what the client sent and "←" for what it got,
// a tool result's text dropped when it only repeats the structured
// content, and the volatile parts normalised (ids in order of appearance,
// times, took_ms, scores beyond 4 decimals).
func transcript(t *testing.T, log string) string {
	t.Helper()
	type entry struct {
		id    float64 // a notification takes the id of the message before it
		reply bool
		text  string
	}
	var entries []entry
	id := 0.0
	for line := range strings.SplitSeq(strings.TrimSpace(log), "\n") {
		m := logLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(m[2]), &msg); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if n, ok := msg["id"].(float64); ok {
			id = n
		}
		dropRepeatedText(msg)
		parseResourceText(msg)
		if id != 1 {
			dropProtocolMeta(msg)
		}
		var data bytes.Buffer
		enc := json.NewEncoder(&data)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(msg)
		arrow := "→"
		if m[1] == "read" {
			arrow = "←"
		}
		entries = append(entries, entry{id, m[1] == "read", arrow + " " + data.String()})
	}
	// The log's order of a request and its reply is a race (the reply can
	// be read before the write is logged): order by id, request first.
	slices.SortStableFunc(entries, func(a, b entry) int {
		if a.id != b.id {
			return cmp.Compare(a.id, b.id)
		}
		return cmp.Compare(btoi(a.reply), btoi(b.reply))
	})
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.text)
	}
	return normalise(b.String())
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dropProtocolMeta removes the protocol's per-message _meta (client and
// server info, repeated on every message since 2026-07-28); the handshake
// keeps it.
func dropProtocolMeta(msg map[string]any) {
	for _, k := range []string{"params", "result"} {
		part, _ := msg[k].(map[string]any)
		meta, _ := part["_meta"].(map[string]any)
		for name := range meta {
			if strings.HasPrefix(name, "io.modelcontextprotocol/") {
				delete(meta, name)
			}
		}
		if part != nil && meta != nil && len(meta) == 0 {
			delete(part, "_meta")
		}
	}
}

// parseResourceText shows a JSON resource's text as JSON, for reading.
func parseResourceText(msg map[string]any) {
	res, _ := msg["result"].(map[string]any)
	contents, _ := res["contents"].([]any)
	for _, c := range contents {
		c, _ := c.(map[string]any)
		var v any
		if s, ok := c["text"].(string); ok && json.Unmarshal([]byte(s), &v) == nil {
			delete(c, "text")
			c["text (parsed)"] = v
		}
	}
}

func dropRepeatedText(msg map[string]any) {
	res, _ := msg["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if res["structuredContent"] == nil || len(content) != 1 {
		return
	}
	c, _ := content[0].(map[string]any)
	s, _ := c["text"].(string)
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(res["structuredContent"])
		if bytes.Equal(a, b) {
			c["text"] = "<structuredContent as JSON>"
		}
	}
}

func normalise(s string) string {
	ids := map[string]string{}
	s = uuidRE.ReplaceAllStringFunc(s, func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = fmt.Sprintf("<id%d>", len(ids)+1)
		}
		return ids[id]
	})
	s = timeRE.ReplaceAllString(s, "<time>")
	s = tookRE.ReplaceAllString(s, "${1}0")
	s = cursorRE.ReplaceAllString(s, "${1}<cursor>")
	return numberRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := numberRE.FindStringSubmatch(m)
		var f float64
		fmt.Sscan(sub[2], &f)
		return sub[1] + fmt.Sprintf("%.4f", f)
	})
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test ./mcpserver -update to create it", err)
	}
	if string(want) != got {
		gotPath := filepath.Join(t.TempDir(), name)
		os.WriteFile(gotPath, []byte(got), 0o644)
		t.Errorf("%s differs from the transcript (written to %s): diff them, and if the change is intended run go test ./mcpserver -update", path, gotPath)
	}
}
