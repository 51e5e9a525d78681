package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Transcript formats `mneme import --from` reads, mapped to the same
// events as the hooks.
var Transcripts = map[string]func([]byte) ([]Event, error){
	"claude-code-transcript": ClaudeTranscript,
	"codex-session":          CodexSession,
}

// ClaudeTranscript reads a Claude Code session transcript (the JSONL under
// ~/.claude/projects/): user text is a prompt, an assistant tool_use and
// its tool_result a tool call.
func ClaudeTranscript(data []byte) ([]Event, error) {
	type block struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		ID      string          `json:"id"`
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		UseID   string          `json:"tool_use_id"`
		Content json.RawMessage `json:"content"`
		IsError bool            `json:"is_error"`
	}
	var evs []Event
	pending := map[string]Event{}
	err := eachLine(data, func(line []byte) error {
		var l struct {
			Type    string    `json:"type"`
			Session string    `json:"sessionId"`
			CWD     string    `json:"cwd"`
			At      time.Time `json:"timestamp"`
			Meta    bool      `json:"isMeta"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		if (l.Type != "user" && l.Type != "assistant") || l.Meta {
			return nil
		}
		base := Event{Host: "claude-code", Session: l.Session, CWD: l.CWD, At: l.At}
		var text string
		if json.Unmarshal(l.Message.Content, &text) == nil {
			if l.Type == "user" {
				evs = append(evs, withPrompt(base, text))
			}
			return nil
		}
		var blocks []block
		_ = json.Unmarshal(l.Message.Content, &blocks)
		for _, b := range blocks {
			switch {
			case b.Type == "text" && l.Type == "user":
				evs = append(evs, withPrompt(base, b.Text))
			case b.Type == "tool_use":
				ev := base
				ev.Kind, ev.Tool, ev.Input = Tool, b.Name, b.Input
				pending[b.ID] = ev
			case b.Type == "tool_result":
				ev, ok := pending[b.UseID]
				if !ok {
					continue
				}
				delete(pending, b.UseID)
				ev.Output, ev.Failed = resultText(b.Content), b.IsError
				evs = append(evs, ev)
			}
		}
		return nil
	})
	return framed(evs), err
}

// CodexSession reads a Codex CLI session log (rollout-*.jsonl under
// ~/.codex/sessions/): session_meta names the session, user messages are
// prompts, function_call and its function_call_output a tool call.
func CodexSession(data []byte) ([]Event, error) {
	var evs []Event
	var base Event
	pending := map[string]Event{}
	err := eachLine(data, func(line []byte) error {
		var l struct {
			At      time.Time `json:"timestamp"`
			Type    string    `json:"type"`
			Payload struct {
				Type    string `json:"type"`
				ID      string `json:"id"`
				CWD     string `json:"cwd"`
				Role    string `json:"role"`
				Name    string `json:"name"`
				Args    string `json:"arguments"`
				CallID  string `json:"call_id"`
				Output  json.RawMessage
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		p := l.Payload
		if l.Type == "session_meta" {
			base = Event{Host: "codex", Session: p.ID, CWD: p.CWD}
			return nil
		}
		ev := base
		ev.At = l.At
		switch {
		case l.Type != "response_item":
		case p.Type == "message" && p.Role == "user":
			for _, c := range p.Content {
				if c.Type == "input_text" && !strings.HasPrefix(strings.TrimSpace(c.Text), "<") {
					evs = append(evs, withPrompt(ev, c.Text))
				}
			}
		case p.Type == "function_call":
			ev.Kind, ev.Tool, ev.Input = Tool, p.Name, json.RawMessage(p.Args)
			pending[p.CallID] = ev
		case p.Type == "function_call_output":
			if call, ok := pending[p.CallID]; ok {
				delete(pending, p.CallID)
				call.Output = resultText(p.Output)
				evs = append(evs, call)
			}
		}
		return nil
	})
	return framed(evs), err
}

func withPrompt(ev Event, text string) Event {
	ev.Kind, ev.Prompt = Prompt, text
	return ev
}

// framed puts a session start before a transcript's events and an end
// after them (per session, in order).
func framed(evs []Event) []Event {
	var out []Event
	for i, ev := range evs {
		if i == 0 || evs[i-1].Session != ev.Session {
			if i > 0 {
				out = append(out, closing(evs[i-1]))
			}
			start := ev
			start.Kind = Start
			out = append(out, start)
		}
		out = append(out, ev)
	}
	if len(evs) > 0 {
		out = append(out, closing(evs[len(evs)-1]))
	}
	return out
}

func closing(ev Event) Event {
	ev.Kind, ev.Prompt, ev.Tool, ev.Input, ev.Output = End, "", "", nil, nil
	return ev
}

// resultText is a tool result's text: a string, or the text blocks of a
// content list, else the JSON.
func resultText(v json.RawMessage) []byte {
	var blocks []struct {
		Type, Text string
	}
	if json.Unmarshal(v, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			parts = append(parts, b.Text)
		}
		return []byte(strings.Join(parts, "\n"))
	}
	return raw2(v)
}

// eachLine calls fn on each non-blank line; an error names the line.
func eachLine(data []byte, fn func([]byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := fn(sc.Bytes()); err != nil {
			return fmt.Errorf("line %d: %v", n, err)
		}
	}
	return sc.Err()
}
