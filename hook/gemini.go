package hook

import "encoding/json"

// gemini reads Gemini CLI's hook events (geminicli.com/docs/hooks/reference):
// BeforeAgent carries the prompt, AfterTool the call, AfterAgent ends a
// turn. Gemini parses all of stdout as JSON, so mneme prints JSON or
// nothing.
type gemini struct{}

type geminiEvent struct {
	Event    string          `json:"hook_event_name"`
	Session  string          `json:"session_id"`
	CWD      string          `json:"cwd"`
	Prompt   string          `json:"prompt"`
	Tool     string          `json:"tool_name"`
	Input    json.RawMessage `json:"tool_input"`
	Response json.RawMessage `json:"tool_response"`
}

func (gemini) Host() string { return "gemini" }

func (gemini) Parse(raw []byte) (Event, error) {
	var e geminiEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return Event{}, err
	}
	ev := Event{Host: "gemini", Name: e.Event, Session: e.Session, CWD: e.CWD}
	switch e.Event {
	case "SessionStart":
		ev.Kind = Start
	case "BeforeAgent":
		ev.Kind, ev.Prompt = Prompt, e.Prompt
	case "AfterTool":
		ev.Kind, ev.Tool, ev.Input = Tool, e.Tool, e.Input
		ev.Output, ev.Failed = geminiOutcome(e.Response)
	case "AfterAgent", "SessionEnd", "PreCompress":
		ev.Kind = End
	}
	return ev, nil
}

// geminiOutcome reads tool_response: {llmContent, returnDisplay, error}.
func geminiOutcome(v json.RawMessage) ([]byte, bool) {
	var r struct {
		LLMContent json.RawMessage `json:"llmContent"`
		Display    json.RawMessage `json:"returnDisplay"`
		Error      json.RawMessage `json:"error"`
	}
	if json.Unmarshal(v, &r) != nil {
		return raw2(v), false
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		return raw2(r.Error), true
	}
	if len(r.LLMContent) > 0 {
		return raw2(r.LLMContent), false
	}
	return raw2(r.Display), false
}

func (gemini) Inject(ev Event, text string) []byte {
	return jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "SessionStart", "additionalContext": text}})
}

func (gemini) Ack(Event) []byte { return nil }
