package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the longest line StdioTransport reads when its
// MaxLineBytes is not set: 8 MiB.
const DefaultMaxLineBytes = 8 << 20

// maxDepth is how deep a message may nest objects and arrays. MCP messages
// nest a handful of levels (a tool call's arguments, a meta object); a line
// nesting deeper is refused before anything decodes it.
const maxDepth = 64

// StdioTransport serves MCP over newline-delimited JSON on standard input
// and output, like the SDK's mcp.StdioTransport, except that a bad line
// does not end the session: a line that is not JSON is answered with a
// JSON-RPC parse error (-32700), one that is JSON but not a single
// JSON-RPC 2.0 message (a batch array, a missing or wrong "jsonrpc", an id
// that is not a string or an integer, a method that is not a string, a NUL
// byte, nesting deeper than 64 levels, a line longer than MaxLineBytes) with
// an invalid request error (-32600), and the next line is read. Blank lines
// are skipped. End of input ends the session once every request read has
// been answered.
type StdioTransport struct {
	// In and Out default to os.Stdin and os.Stdout. Closing the connection
	// closes In if it is an io.Closer; Out is never closed.
	In  io.Reader
	Out io.Writer
	// MaxLineBytes is the longest line read, not counting its newline
	// (DefaultMaxLineBytes if zero or less). A longer line is discarded as
	// it is read, never held whole, and answered with an error.
	MaxLineBytes int
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	in, out := t.In, t.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	c := &stdioConn{in: in, out: out, limit: limit, lines: make(chan line), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]int{}, answered: make(chan struct{}, 1)}
	go c.readLines()
	return c, nil
}

// A line is what the reading goroutine hands to Read: the line without its
// newline, or the length of an over-long line it discarded, or the error
// that ended the input (io.EOF at its end).
type line struct {
	text    []byte
	tooLong int64
	err     error
}

// stdioConn is an mcp.Connection over newline-delimited JSON.
type stdioConn struct {
	in    io.Reader
	out   io.Writer
	limit int // MaxLineBytes

	lines   chan line     // from readLines
	readErr error         // the error that ended the input, once Read has seen it
	closed  chan struct{} // closed by Close

	writeMu   sync.Mutex // one message per write, whole
	closeOnce sync.Once
	closeErr  error

	// The requests read and not answered yet: at the end of the input,
	// Read waits for their answers before it says the input ended, so a
	// request followed at once by the end of input is still answered.
	pendingMu sync.Mutex
	pending   map[jsonrpc.ID]int
	answered  chan struct{} // signalled when a response is written
}

func (c *stdioConn) SessionID() string { return "" }

// readLines reads lines into c.lines until the input ends or the
// connection closes. It runs in its own goroutine so that Read can return
// on Close while this one is blocked reading (as the SDK's, it is left
// behind if the reader never returns).
func (c *stdioConn) readLines() {
	limit := int64(c.limit)
	send := func(l line) bool {
		select {
		case c.lines <- l:
			return true
		case <-c.closed:
			return false
		}
	}
	r := bufio.NewReaderSize(c.in, 64<<10)
	var buf []byte
	var size int64 // bytes in the line so far, its newline excluded
	for {
		chunk, err := r.ReadSlice('\n')
		end := err == nil // the chunk ends with the newline
		n := len(chunk)
		if end {
			n--
		}
		size += int64(n)
		if size > limit {
			buf = buf[:0] // drop what was kept; keep counting
		} else {
			buf = append(buf, chunk[:n]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if end || size > 0 { // a last line without a newline counts too
			l := line{text: buf}
			if size > limit {
				l = line{tooLong: size}
			}
			if !send(l) {
				return
			}
			buf, size = nil, 0
		}
		if err != nil {
			send(line{err: err})
			return
		}
	}
}

// Read implements mcp.Connection: the next valid message. A bad line is
// answered here and skipped.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if c.readErr != nil {
			return nil, c.ended(ctx)
		}
		var l line
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case l = <-c.lines:
		}
		if l.err != nil {
			c.readErr = l.err
			continue
		}
		var msg jsonrpc.Message
		var bad *lineError
		if l.tooLong > 0 {
			bad = invalid(nil, "the line is %d bytes long, over the limit of %d: it was discarded", l.tooLong, c.limit)
		} else {
			msg, bad = parseLine(l.text)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.pendingMu.Lock()
			c.pending[req.ID]++
			c.pendingMu.Unlock()
		}
		if msg != nil {
			return msg, nil
		}
		if bad != nil {
			if err := c.writeLine(ctx, bad.reply()); err != nil {
				return nil, err
			}
		}
	}
}

// ended returns the error that ended the input once every request read
// has been answered (or the connection closes, or ctx ends).
func (c *stdioConn) ended(ctx context.Context) error {
	for {
		c.pendingMu.Lock()
		n := len(c.pending)
		c.pendingMu.Unlock()
		if n == 0 {
			return c.readErr
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.closed:
			return io.EOF
		case <-c.answered:
		}
	}
}

// Write implements mcp.Connection: msg as one line, never interleaved with
// another write.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	err = c.writeLine(ctx, data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pendingMu.Lock()
		if c.pending[resp.ID]--; c.pending[resp.ID] <= 0 {
			delete(c.pending, resp.ID)
		}
		c.pendingMu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *stdioConn) writeLine(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(data)
	return err
}

// Close implements mcp.Connection.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if cl, ok := c.in.(io.Closer); ok {
			c.closeErr = cl.Close()
		}
	})
	return c.closeErr
}

// A lineError is the answer to a bad line: a JSON-RPC error response.
type lineError struct {
	id      json.RawMessage // the request's id when it could be read, else nil (null)
	code    int64
	message string
}

func invalid(id json.RawMessage, format string, args ...any) *lineError {
	return &lineError{id: id, code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + fmt.Sprintf(format, args...)}
}

// reply is the error response, without a newline.
func (e *lineError) reply() []byte {
	type response struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	r := response{JSONRPC: "2.0", ID: e.id, Error: &jsonrpc.Error{Code: e.code, Message: e.message}}
	if r.ID == nil {
		r.ID = json.RawMessage("null")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // cannot happen: the id is JSON read from the line
		r.ID = json.RawMessage("null")
		b.Reset()
		enc.Encode(r)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// parseLine is the message on a line, or the error that answers it; a blank
// line is neither. The checks run from the cheapest and safest to the
// decoding itself, so that the SDK's decoder only sees a single JSON-RPC 2.0
// object of sane depth, and the error says what is wrong with the line. The
// id is echoed in an error only when the line is a request (it has a
// "method") whose id is a string or a number; a malformed response (no
// "method") is answered with a null id, which no request of the client's
// can be mistaken for.
func parseLine(text []byte) (jsonrpc.Message, *lineError) {
	text = bytes.Trim(text, " \t\r\n")
	if len(text) == 0 {
		return nil, nil
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return nil, invalid(nil, "the line contains a NUL byte")
	}
	if !utf8.Valid(text) {
		// JSON decoding would silently replace the bytes: refused, as the
		// HTTP API and the CLI refuse them.
		return nil, &lineError{code: jsonrpc.CodeParseError, message: "parse error: the line is not valid UTF-8: convert it to UTF-8 first"}
	}
	if tooDeep(text) {
		// Refused before any decoding, valid JSON or not.
		return nil, invalid(requestID(shallowMembers(text)), "the message nests objects and arrays deeper than %d levels", maxDepth)
	}
	if !json.Valid(text) {
		err := json.Unmarshal(text, new(json.RawMessage))
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &lineError{code: jsonrpc.CodeParseError, message: fmt.Sprintf("parse error: %v (at byte %d)", se, se.Offset)}
		}
		return nil, &lineError{code: jsonrpc.CodeParseError, message: fmt.Sprintf("parse error: %v", err)}
	}
	switch text[0] {
	case '{':
	case '[':
		return nil, invalid(nil, "batches (JSON arrays) are not supported: send one message per line")
	default:
		return nil, invalid(nil, "a message is a JSON object, not %s", kind(text))
	}
	var m map[string]json.RawMessage // keys as sent: no case folding
	if err := json.Unmarshal(text, &m); err != nil {
		return nil, invalid(nil, "%v", err) // cannot happen: text is a valid object
	}
	id := requestID(m)
	tag, ok := m["jsonrpc"]
	if !ok {
		return nil, invalid(id, `"jsonrpc" is missing: it must be "2.0"`)
	}
	if s := ""; json.Unmarshal(tag, &s) != nil || s != "2.0" {
		return nil, invalid(id, `"jsonrpc" must be "2.0", not %s`, snippet(tag))
	}
	if method, ok := m["method"]; ok { // a request, or a notification without an id
		if k := kind(method); k != "a string" {
			return nil, invalid(id, `"method" must be a string, not %s`, k)
		}
		if raw, ok := m["id"]; ok {
			if why := badID(raw); why != "" {
				return nil, invalid(id, "%s", why)
			}
		}
		if p, ok := m["params"]; ok {
			if k := kind(p); k != "an object" && k != "an array" && k != "null" {
				return nil, invalid(id, `"params" must be an object or an array, not %s`, k)
			}
		}
	} else { // a response
		raw, ok := m["id"]
		if !ok {
			return nil, invalid(nil, `the message has neither a "method" (a request) nor an "id" (a response)`)
		}
		if why := badID(raw); why != "" {
			return nil, invalid(nil, "%s", why)
		}
		_, result := m["result"]
		e, isError := m["error"]
		if result == isError {
			return nil, invalid(nil, `a response (a message without "method") needs exactly one of "result" and "error"`)
		}
		if k := kind(e); isError && k != "an object" {
			return nil, invalid(nil, `"error" must be an object, not %s`, k)
		}
	}
	msg, err := jsonrpc.DecodeMessage(text)
	if err != nil {
		return nil, invalid(id, "%v", err)
	}
	return msg, nil
}

// badID says what is wrong with an id, if anything. MCP ids are strings or
// integers (never null); an integer must be exact in a float64, as the SDK
// reads it as one.
func badID(raw json.RawMessage) string {
	switch k := kind(raw); k {
	case "a string":
		return ""
	case "a number":
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
		if err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return ""
		}
		return fmt.Sprintf(`"id" must be a string or an integer of at most 2^53, not %s`, snippet(raw))
	case "null":
		return `"id" must be a string or an integer, not null (a notification has no "id")`
	default:
		return fmt.Sprintf(`"id" must be a string or an integer, not %s`, k)
	}
}

// requestID is the id to echo in an error answering the members m of a
// message: its id if it is a request (it has a "method") and the id is a
// string or a number, else nil.
func requestID(m map[string]json.RawMessage) json.RawMessage {
	if _, ok := m["method"]; !ok {
		return nil
	}
	if id := bytes.TrimSpace(m["id"]); kind(id) == "a string" || kind(id) == "a number" {
		return id
	}
	return nil
}

// kind names the JSON type of a valid value, for errors.
func kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// snippet is raw, shortened for an error message.
func snippet(raw json.RawMessage) string {
	const max = 40
	raw = bytes.TrimSpace(raw)
	if len(raw) > max {
		return string(raw[:max]) + "…"
	}
	return string(raw)
}

// tooDeep reports whether text nests objects and arrays deeper than
// maxDepth, counting brackets outside strings; it stops at the first level
// too deep, and needs text to be neither valid nor complete.
func tooDeep(text []byte) bool {
	depth := 0
	inString, escaped := false, false
	for _, b := range text {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case b == '}' || b == ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}

// shallowMembers reads the top-level members of an object on a line that
// nests too deep to decode, token by token: scalars as they are, objects
// and arrays as {} and []. It stops at the first error or at the first
// value nesting too deep, keeping what it read before.
func shallowMembers(text []byte) map[string]json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return m
		}
		if t, err = dec.Token(); err != nil {
			return m
		}
		switch v := t.(type) {
		case json.Delim:
			m[key] = json.RawMessage(string(v) + map[json.Delim]string{'{': "}", '[': "]"}[v])
			for depth := 1; depth > 0; {
				if depth > maxDepth {
					return m
				}
				t, err := dec.Token()
				if err != nil {
					return m
				}
				switch t {
				case json.Delim('{'), json.Delim('['):
					depth++
				case json.Delim('}'), json.Delim(']'):
					depth--
				}
			}
		case json.Number:
			m[key] = json.RawMessage(v)
		default: // string, bool, nil
			b, _ := json.Marshal(v)
			m[key] = b
		}
	}
	return m
}
