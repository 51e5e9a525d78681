package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdioBadLines writes raw lines to `mneme mcp`: a line that is not
// JSON, a batch, a 10 MiB line and one with a NUL byte are each answered
// with a JSON-RPC error, and the session goes on: remember and recall work
// after them, and the process runs until its input ends.
func TestMCPStdioBadLines(t *testing.T) {
	cmd := exec.Command(bin, "mcp", "--embedder", "hash")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{}) // closed once the process is waited for
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	})
	replies := make(chan string, 16)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(replies)
				break
			}
			replies <- l
		}
		waitErr = cmd.Wait()
		close(exited)
	}()

	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %.60q: %v\nstderr: %s", line, err, stderr.String())
		}
	}
	type reply struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	recv := func() (reply, string) {
		t.Helper()
		select {
		case l, ok := <-replies:
			if !ok {
				t.Fatalf("mneme mcp ended its output\nstderr: %s", stderr.String())
			}
			var r reply
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("reply %q: %v", l, err)
			}
			return r, l
		case <-time.After(30 * time.Second):
			t.Fatalf("no reply from mneme mcp\nstderr: %s", stderr.String())
		}
		panic("unreachable")
	}
	call := func(id int, method, params string) string {
		t.Helper()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
		r, l := recv()
		if string(r.ID) != fmt.Sprint(id) || r.Error != nil || r.Result == nil || strings.Contains(string(r.Result), `"isError":true`) {
			t.Fatalf("%s: %s", method, l)
		}
		return string(r.Result)
	}

	call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remember","arguments":{"text":"` +
		strings.Repeat("a", 10<<20) + `"}}}`
	for _, tt := range []struct {
		name, line string
		code       int
		message    string
	}{
		{"garbage", "this is not JSON", -32700, "parse error"},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "batches"},
		{"10 MiB line", huge, -32600, "over the limit of 8388608"},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\x00\"}", -32600, "NUL byte"},
	} {
		send(tt.line)
		if r, l := recv(); r.Error == nil || r.Error.Code != tt.code || string(r.ID) != "null" || !strings.Contains(r.Error.Message, tt.message) {
			t.Errorf("%s: want error %d %q with a null id, got %.300s", tt.name, tt.code, tt.message, l)
		}
	}
	call(5, "tools/call", `{"name":"remember","arguments":{"text":"The staging database runs Postgres 17.","project":"e2e"}}`)
	if res := call(6, "tools/call", `{"name":"recall","arguments":{"query":"which postgres does staging run","project":"e2e"}}`); !strings.Contains(res, "Postgres 17") {
		t.Fatalf("recall after the bad lines: %s", res)
	}
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("mneme mcp is not running: %v", err)
	}

	stdin.Close() // the end of input ends the session, and the process, cleanly
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("mneme mcp at the end of input: %v\nstderr: %s", waitErr, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("mneme mcp does not exit at the end of its input")
	}
}

// TestMCPStdioSDKClient: the official Go SDK client works with `mneme mcp`
// over its stdio transport, and closing the session ends the process.
func TestMCPStdioSDKClient(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "Deploys go out on Tuesdays.", "--project", "e2e", "--embedder", "hash")
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--embedder", "hash")
	cmd.Env = append(os.Environ(), "MNEME_HOME="+home)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tools, err := session.ListTools(ctx, nil); err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v, %v", tools, err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "when do deploys go out", "project": "e2e"}})
	if err != nil || res.IsError {
		t.Fatalf("recall: %v, %+v", err, res)
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), "Tuesdays") {
		t.Fatalf("recall: %s", b)
	}
	if err := session.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("mneme mcp after the session closed: %v", cmd.ProcessState)
	}
}

// TestMCPStdioInputEnds: requests whose input ends right after them (a
// script piping its requests in) are all answered before `mneme mcp`
// exits: the remember is written, the recall finds it.
func TestMCPStdioInputEnds(t *testing.T) {
	home := t.TempDir()
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":{"text":"the deploy key rotates on Mondays"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}, "\n") + "\n"
	r := mnemeEnv(t, home, in, []string{"MNEME_EMBEDDER=hash"}, "mcp")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	ids := map[float64]bool{}
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			ID    float64
			Error any
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.Error != nil {
			t.Fatalf("reply %q: %v", l, err)
		}
		ids[m.ID] = true
	}
	if !ids[1] || !ids[2] || !ids[3] {
		t.Fatalf("answered %v, want 1, 2 and 3: %s", ids, r.stdout)
	}
	if n := countRecords(t, home); n != 1 {
		t.Fatalf("%d records written, want 1", n)
	}
}
