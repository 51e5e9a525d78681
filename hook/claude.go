package hook

import (
	"encoding/json"
	"strings"
)

// claude reads Claude Code's hook events (code.claude.com/docs/en/hooks),
// and Codex CLI's, which follow the same names and fields
// (developers.openai.com/codex/hooks; codex-rs/hooks/schema).
type claude struct{ host string }

// claudeEvent holds the fields mneme reads; the hosts add others freely.
type claudeEvent struct {
	Event     string          `json:"hook_event_name"`
	Session   string          `json:"session_id"`
	CWD       string          `json:"cwd"`
	Prompt    string          `json:"prompt"`
	Tool      string          `json:"tool_name"`
	Input     json.RawMessage `json:"tool_input"`
	Response  json.RawMessage `json:"tool_response"`
	Error     json.RawMessage `json:"error"`
	Interrupt bool            `json:"is_interrupt"`
}

func (c claude) Host() string { return c.host }

func (c claude) Parse(raw []byte) (Event, error) {
	var e claudeEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return Event{}, err
	}
	ev := Event{Host: c.host, Name: e.Event, Session: e.Session, CWD: e.CWD}
	switch e.Event {
	case "SessionStart":
		ev.Kind = Start
	case "UserPromptSubmit":
		ev.Kind, ev.Prompt = Prompt, e.Prompt
	case "PostToolUse":
		ev.Kind, ev.Tool, ev.Input, ev.Output = Tool, e.Tool, e.Input, raw2(e.Response)
		ev.Failed = toolFailed(e.Response)
	case "PostToolUseFailure":
		ev.Kind, ev.Tool, ev.Input, ev.Output, ev.Failed = Tool, e.Tool, e.Input, raw2(e.Error), true
	case "Stop", "SessionEnd", "PreCompact":
		ev.Kind = End
	}
	return ev, nil
}

// Inject is hookSpecificOutput.additionalContext, the shape both Claude
// Code and Codex document for SessionStart (Codex refuses other keys).
func (c claude) Inject(ev Event, text string) []byte {
	return jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "SessionStart", "additionalContext": text}})
}

func (c claude) Ack(Event) []byte { return nil }

// raw2 is a JSON value as the outcome's bytes: a string's text, else the
// JSON itself.
func raw2(v json.RawMessage) []byte {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return []byte(s)
	}
	if string(v) == "null" {
		return nil
	}
	return v
}

// toolFailed reads the failure flags tools put in their response
// (Bash: interrupted; others: is_error, success false, error).
func toolFailed(v json.RawMessage) bool {
	if !strings.HasPrefix(strings.TrimSpace(string(v)), "{") {
		return false
	}
	var r struct {
		IsError     bool            `json:"is_error"`
		Success     *bool           `json:"success"`
		Interrupted bool            `json:"interrupted"`
		Error       json.RawMessage `json:"error"`
	}
	if json.Unmarshal(v, &r) != nil {
		return false
	}
	hasErr := len(r.Error) > 0 && string(r.Error) != "null" && string(r.Error) != `""`
	return r.IsError || r.Interrupted || (r.Success != nil && !*r.Success) || hasErr
}
