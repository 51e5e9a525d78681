// Package hook captures what an agent host (Claude Code, Codex CLI, Cursor,
// Gemini CLI) does through its hooks: one adapter per host turns the
// host's event JSON into a neutral Event, and one capture core turns
// Events into operational memory (an ops.Batch written with ops.Write) and,
// at session start, into the context package the host injects.
package hook

import (
	"bytes"
	"encoding/json"
	"time"
)

// Kind is what an event means to the capture core.
type Kind int

const (
	Ignore Kind = iota // an event mneme does not act on
	Start              // session start: print a context package
	Prompt             // the user submitted a prompt
	Tool               // a tool call finished (or failed)
	End                // stop, session end, pre-compact: close and summarise
)

func (k Kind) String() string {
	return [...]string{"ignore", "start", "prompt", "tool", "end"}[k]
}

// Event is one host event, host-neutral.
type Event struct {
	Host    string
	Name    string // the host's own event name, for the log
	Kind    Kind
	Session string
	CWD     string    // decides the repository, hence the project
	At      time.Time // zero: now
	Prompt  string
	Tool    string
	Input   json.RawMessage // the tool's input as the host gave it
	Output  []byte          // the tool's outcome: text, or JSON as the host gave it
	Failed  bool
	Millis  int64 // the tool's duration, when the host says
}

// Adapter is one host's side: its event names and fields, and the shape
// of what it injects at session start.
type Adapter interface {
	Host() string
	// Parse reads one event. An event the host documents but mneme does
	// not act on has Kind Ignore; malformed JSON is an error.
	Parse(raw []byte) (Event, error)
	// Inject is the stdout that makes the host add text to the agent's
	// context at session start.
	Inject(ev Event, text string) []byte
	// Ack is the stdout for any other event acted on (nil: nothing).
	Ack(ev Event) []byte
}

// Adapters are the hosts `mneme hook HOST` accepts, by name.
var Adapters = map[string]Adapter{
	"claude-code": claude{host: "claude-code"},
	"codex":       claude{host: "codex"},
	"gemini":      gemini{},
	"cursor":      cursor{},
}

// Hosts lists the host names in a fixed order.
var Hosts = []string{"claude-code", "codex", "cursor", "gemini"}

// jsonLine encodes v without HTML escaping (the package's text stays
// readable in the host's logs).
func jsonLine(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
