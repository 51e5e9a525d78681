package hook

import "encoding/json"

// cursor reads Cursor's agent hook events (cursor.com/docs/hooks): names
// in camelCase, the conversation as the session, the workspace roots as
// the directory. sessionStart injects through additional_context.
type cursor struct{}

type cursorEvent struct {
	Event        string          `json:"hook_event_name"`
	Conversation string          `json:"conversation_id"`
	Session      string          `json:"session_id"`
	Roots        []string        `json:"workspace_roots"`
	CWD          string          `json:"cwd"`
	Prompt       string          `json:"prompt"`
	Tool         string          `json:"tool_name"`
	Input        json.RawMessage `json:"tool_input"`
	Output       json.RawMessage `json:"tool_output"`
	Error        json.RawMessage `json:"error_message"`
	Duration     float64         `json:"duration"`
}

func (cursor) Host() string { return "cursor" }

func (cursor) Parse(raw []byte) (Event, error) {
	var e cursorEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return Event{}, err
	}
	ev := Event{Host: "cursor", Name: e.Event, Session: e.Conversation, CWD: e.CWD}
	if ev.Session == "" {
		ev.Session = e.Session
	}
	if len(e.Roots) > 0 {
		ev.CWD = e.Roots[0]
	}
	switch e.Event {
	case "sessionStart":
		ev.Kind = Start
	case "beforeSubmitPrompt":
		ev.Kind, ev.Prompt = Prompt, e.Prompt
	case "postToolUse":
		ev.Kind, ev.Tool, ev.Input, ev.Output, ev.Millis = Tool, e.Tool, e.Input, raw2(e.Output), int64(e.Duration)
	case "postToolUseFailure":
		ev.Kind, ev.Tool, ev.Input, ev.Output, ev.Failed = Tool, e.Tool, e.Input, raw2(e.Error), true
	case "stop", "sessionEnd", "preCompact":
		ev.Kind = End
	}
	return ev, nil
}

func (cursor) Inject(ev Event, text string) []byte {
	return jsonLine(map[string]string{"additional_context": text})
}

// Ack lets a prompt through: beforeSubmitPrompt documents {"continue"}.
func (cursor) Ack(ev Event) []byte {
	if ev.Name == "beforeSubmitPrompt" {
		return []byte(`{"continue":true}`)
	}
	return nil
}
