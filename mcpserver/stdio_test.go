package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// rawClient talks raw lines to a server on a StdioTransport over pipes.
type rawClient struct {
	t       *testing.T
	in      *io.PipeWriter // the server's input
	replies chan []byte    // the server's output, line by line
	done    chan error     // what Run returned
}

func startStdio(t *testing.T, maxLine int) *rawClient {
	t.Helper()
	eng, _ := newEngine(t, true)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rawClient{t: t, in: inW, replies: make(chan []byte, 16), done: make(chan error, 1)}
	go func() {
		c.done <- New(eng, testInfo).Run(context.Background(), &StdioTransport{In: inR, Out: outW, MaxLineBytes: maxLine})
		outW.Close()
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadBytes('\n')
			if err != nil {
				close(c.replies)
				return
			}
			c.replies <- l
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// send writes one line (a newline is added).
func (c *rawClient) send(line string) {
	c.t.Helper()
	errc := make(chan error, 1)
	go func() { _, err := io.WriteString(c.in, line+"\n"); errc <- err }()
	select {
	case err := <-errc:
		if err != nil {
			c.t.Fatalf("write %.60q: %v", line, err)
		}
	case <-time.After(20 * time.Second):
		c.t.Fatalf("write %.60q: the server does not read", line)
	}
}

type rawReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

// recv is the server's next line.
func (c *rawClient) recv() (rawReply, string) {
	c.t.Helper()
	select {
	case l, ok := <-c.replies:
		if !ok {
			c.t.Fatalf("the server's output ended: Run returned %v", <-c.done)
		}
		var r rawReply
		if err := json.Unmarshal(l, &r); err != nil || r.JSONRPC != "2.0" {
			c.t.Fatalf("reply %s: %v", l, err)
		}
		return r, string(l)
	case <-time.After(20 * time.Second):
		c.t.Fatal("no reply from the server")
	}
	panic("unreachable")
}

// call sends a request and checks it is answered with a result.
func (c *rawClient) call(id, method, params string) json.RawMessage {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, params))
	r, line := c.recv()
	if string(r.ID) != id || r.Error != nil || r.Result == nil {
		c.t.Fatalf("%s %s: got %s", method, id, line)
	}
	return r.Result
}

func (c *rawClient) initialize() {
	c.t.Helper()
	c.call("0", "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestStdioBadLines sends every kind of bad line, each answered with the
// error it deserves, and checks the session goes on after each one.
func TestStdioBadLines(t *testing.T) {
	const limit = 4096
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }
	tests := []struct {
		name, line string
		code       int64  // 0: the line is not answered (blank) or answered normally (ok)
		id         string // the id in the error, as JSON
		message    string // in the error message
		ok         bool   // a valid message, answered with a result
	}{
		{"not JSON", "hello there", -32700, "null", "parse error: invalid character 'h'", false},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, -32700, "null", "parse error: unexpected end of JSON input", false},
		{"two values", `{"jsonrpc":"2.0","id":1,"method":"ping"} {}`, -32700, "null", "parse error: invalid character '{' after top-level value", false},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "null", "batches (JSON arrays) are not supported", false},
		{"empty batch", `[]`, -32600, "null", "batches", false},
		{"number", `42`, -32600, "null", "a message is a JSON object, not a number", false},
		{"string", `"ping"`, -32600, "null", "not a string", false},
		{"null", `null`, -32600, "null", "not null", false},
		{"missing jsonrpc", `{"id":3,"method":"ping"}`, -32600, "3", `"jsonrpc" is missing`, false},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"x","method":"ping"}`, -32600, `"x"`, `"jsonrpc" must be "2.0", not "1.0"`, false},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":3,"method":"ping"}`, -32600, "3", `not 2.0`, false},
		{"jsonrpc in capitals", `{"JSONRPC":"2.0","id":3,"method":"ping"}`, -32600, "3", `"jsonrpc" is missing`, false},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null", `"id" must be a string or an integer, not an object`, false},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null", "not an array", false},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null", "not a boolean", false},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null", "not null", false},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "1.5", "an integer of at most 2^53, not 1.5", false},
		{"huge id", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, "1e400", "not 1e400", false},
		{"method a number", `{"jsonrpc":"2.0","id":4,"method":42}`, -32600, "4", `"method" must be a string, not a number`, false},
		{"method null", `{"jsonrpc":"2.0","id":"m","method":null}`, -32600, `"m"`, "not null", false},
		{"params a string", `{"jsonrpc":"2.0","id":4,"method":"ping","params":"x"}`, -32600, "4", `"params" must be an object or an array, not a string`, false},
		{"NUL byte", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\x00\"}", -32600, "null", "NUL byte", false},
		{"NUL alone", "\x00", -32600, "null", "NUL byte", false},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":{\"text\":\"\xff\xfe\"}}}", -32700, "null", "not valid UTF-8", false},
		{"deep params", `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":` + deep(100) + `}}`, -32600, "6", "deeper than 64 levels", false},
		{"deep before id", `{"jsonrpc":"2.0","method":"ping","params":` + deep(100) + `,"id":6}`, -32600, "null", "deeper than 64", false},
		{"deep array", deep(2000), -32600, "null", "deeper than 64", false},
		{"deep garbage", strings.Repeat("{[", 1000), -32600, "null", "deeper than 64", false},
		{"response without result", `{"jsonrpc":"2.0","id":7}`, -32600, "null", `exactly one of "result" and "error"`, false},
		{"response with both", `{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}`, -32600, "null", `exactly one of "result" and "error"`, false},
		{"response with a string error", `{"jsonrpc":"2.0","id":7,"error":"x"}`, -32600, "null", `"error" must be an object`, false},
		{"response with an object id", `{"jsonrpc":"2.0","id":{},"result":{}}`, -32600, "null", "not an object", false},
		{"neither method nor id", `{"jsonrpc":"2.0"}`, -32600, "null", `neither a "method"`, false},
		{"over the limit", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":"` + strings.Repeat("a", 2*limit) + `"}}`, -32600, "null", "over the limit of 4096", false},
		{"over the limit by one", pad(`{"jsonrpc":"2.0","id":8,"method":"ping"}`, limit+1), -32600, "null", "4097 bytes long", false},
		{"blank", " \t ", 0, "", "", false},
		{"empty", "", 0, "", "", false},
		{"at the limit", pad(`{"jsonrpc":"2.0","id":9,"method":"ping"}`, limit), 0, "9", "", true},
		{"CRLF", `{"jsonrpc":"2.0","id":10,"method":"ping"}` + "\r", 0, "10", "", true},
		{"unknown method", `{"jsonrpc":"2.0","id":11,"method":"no/such"}`, -32601, "11", "", false},
		{"unexpected response", `{"jsonrpc":"2.0","id":12,"result":{}}`, 0, "", "", false},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/unknown"}`, 0, "", "", false},
	}
	c := startStdio(t, limit)
	c.initialize()
	for i, tt := range tests {
		c.send(tt.line)
		if tt.code != 0 || tt.ok {
			r, line := c.recv()
			switch {
			case tt.ok && (r.Error != nil || string(r.ID) != tt.id):
				t.Errorf("%s: want a result for id %s, got %s", tt.name, tt.id, line)
			case !tt.ok && (r.Error == nil || r.Error.Code != tt.code || string(r.ID) != tt.id || !strings.Contains(r.Error.Message, tt.message)):
				t.Errorf("%s: want error %d with id %s and %q, got %s", tt.name, tt.code, tt.id, tt.message, line)
			}
		}
		// The session goes on, and nothing else was answered.
		id := fmt.Sprintf(`"after-%d"`, i)
		if i%2 == 0 {
			c.call(id, "ping", "{}")
		} else if res := c.call(id, "tools/list", "{}"); !bytes.Contains(res, []byte(`"recall"`)) {
			t.Fatalf("tools/list after %s: %s", tt.name, res)
		}
	}
	// End of input ends the session cleanly.
	c.in.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Fatalf("Run at the end of input: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run does not return at the end of input")
	}
}

// TestStdioLastLineWithoutNewline: the input may end without a newline.
func TestStdioLastLineWithoutNewline(t *testing.T) {
	var out bytes.Buffer
	conn, _ := (&StdioTransport{In: strings.NewReader("\n  \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"), Out: &out}).Connect(context.Background())
	defer conn.Close()
	msg, err := conn.Read(context.Background())
	if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.Method != "ping" {
		t.Fatalf("Read = %v, %v", msg, err)
	}
	// The end of input waits for the answer to the request read.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if msg, err := conn.Read(ctx); err != context.DeadlineExceeded {
		t.Fatalf("Read at the end, the ping unanswered = %v, %v; want to wait", msg, err)
	}
	if err := conn.Write(context.Background(), &jsonrpc.Response{ID: req(msg).ID, Result: json.RawMessage("{}")}); err != nil {
		t.Fatal(err)
	}
	if msg, err := conn.Read(context.Background()); err != io.EOF {
		t.Fatalf("Read at the end = %v, %v; want io.EOF", msg, err)
	}
	if out.String() != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Fatalf("wrote %q", out.String())
	}
}

func req(msg jsonrpc.Message) *jsonrpc.Request { return msg.(*jsonrpc.Request) }

// TestStdioCloseUnblocksRead: Close ends a Read waiting for input.
func TestStdioCloseUnblocksRead(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	conn, _ := (&StdioTransport{In: r, Out: io.Discard}).Connect(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := conn.Read(context.Background()); errc <- err }()
	time.Sleep(10 * time.Millisecond)
	conn.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("Read after Close returned no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close does not unblock Read")
	}
	id, _ := jsonrpc.MakeID(float64(1))
	if err := conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: json.RawMessage("{}")}); err == nil {
		t.Fatal("Write after Close returned no error")
	}
}

// slowWriter writes a byte at a time, yielding in between, so that
// unserialized writes would interleave.
type slowWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *slowWriter) Write(p []byte) (int, error) {
	for _, b := range p {
		w.mu.Lock()
		w.buf.WriteByte(b)
		w.mu.Unlock()
		runtime.Gosched()
	}
	return len(p), nil
}

// TestStdioConcurrentWrites: messages written at once come out one per line.
func TestStdioConcurrentWrites(t *testing.T) {
	var w slowWriter
	conn, _ := (&StdioTransport{In: strings.NewReader(""), Out: &w}).Connect(context.Background())
	defer conn.Close()
	const n = 32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, _ := jsonrpc.MakeID(float64(i))
			msg := &jsonrpc.Response{ID: resp, Result: json.RawMessage(fmt.Sprintf(`{"text":%q}`, strings.Repeat("x", 100+i)))}
			if err := conn.Write(context.Background(), msg); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(w.buf.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines for %d messages", len(lines), n)
	}
	seen := map[int64]bool{}
	for _, l := range lines {
		msg, err := jsonrpc.DecodeMessage([]byte(l))
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		seen[msg.(*jsonrpc.Response).ID.Raw().(int64)] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct messages of %d", len(seen), n)
	}
}

// FuzzStdioLine feeds arbitrary input, then a ping, to a connection: it must
// never panic or end early; each line is either a message or answered with
// a parse or invalid request error, and the ping still arrives. The seeds
// are in testdata/fuzz/FuzzStdioLine.
func FuzzStdioLine(f *testing.F) {
	const limit = 1024
	sentinel := `{"jsonrpc":"2.0","id":"fuzz-sentinel","method":"ping"}`
	f.Fuzz(func(t *testing.T, input []byte) {
		want := 0 // lines that must give a message or an error
		for seg := range bytes.SplitSeq(input, []byte("\n")) {
			if len(seg) > limit || len(bytes.Trim(seg, " \t\r\n")) > 0 {
				want++
			}
		}
		var out bytes.Buffer // written only by Read, in this goroutine
		in := append(append(bytes.Clone(input), '\n'), sentinel+"\n"...)
		conn, _ := (&StdioTransport{In: bytes.NewReader(in), Out: &out, MaxLineBytes: limit}).Connect(context.Background())
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var msgs []jsonrpc.Message
		for { // to the sentinel: the end of input after it waits for answers to the requests read
			msg, err := conn.Read(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			msgs = append(msgs, msg)
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.Raw() == "fuzz-sentinel" {
				break
			}
		}
		if len(msgs) == 0 {
			t.Fatal("the sentinel ping did not arrive")
		}
		if req, ok := msgs[len(msgs)-1].(*jsonrpc.Request); !ok || req.ID.Raw() != "fuzz-sentinel" {
			t.Fatalf("the last message is %#v, not the sentinel", msgs[len(msgs)-1])
		}
		replies := 0
		for l := range bytes.SplitSeq(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			replies++
			var r rawReply
			if err := json.Unmarshal(l, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Result != nil {
				t.Fatalf("reply %q: %v", l, err)
			}
			if r.Error.Code != jsonrpc.CodeParseError && r.Error.Code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("reply %q: code %d", l, r.Error.Code)
			}
			if k := kind(r.ID); k != "null" && k != "a string" && k != "a number" {
				t.Fatalf("reply %q: id is %s", l, k)
			}
		}
		if got := len(msgs) - 1 + replies; got != want {
			t.Fatalf("%d lines gave %d messages and %d errors", want, len(msgs)-1, replies)
		}
		for _, m := range msgs { // what passes is something the SDK can write back
			if _, err := jsonrpc.EncodeMessage(m); err != nil {
				t.Fatalf("EncodeMessage(%#v): %v", m, err)
			}
		}
	})
}
