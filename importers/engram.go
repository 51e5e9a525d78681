package importers

import (
	"encoding/json"

	"github.com/mneme-ai/mneme"
)

// Engram's export (`engram export`): {"version","exported_at","sessions":[
// {"id","project","directory","started_at","ended_at","summary"}],
// "observations":[{"id","sync_id","session_id","type","title","content",
// "tool_name","project","scope","topic_key",…,"created_at","updated_at",
// "deleted_at"}],"prompts":[{"id","sync_id","session_id","content",
// "project","created_at"}]}. An observation is a semantic record (its type
// the kind, its topic key the key), a prompt and a session summary are
// episodic; deleted observations are left out.
func init() {
	register(Format{Name: "engram", Summary: "Engram's export (engram export): sessions, observations, prompts", Parse: parseEngram})
}

type engramExport struct {
	Version      string                       `json:"version"`
	Sessions     []map[string]json.RawMessage `json:"sessions"`
	Observations []map[string]json.RawMessage `json:"observations"`
	Prompts      []map[string]json.RawMessage `json:"prompts"`
}

func parseEngram(in Input) ([]*mneme.Record, error) {
	f := in.Files[0]
	var x engramExport
	if err := json.Unmarshal(f.Data, &x); err != nil || x.Observations == nil && x.Sessions == nil {
		return nil, lineError(f.Name, 0, `not Engram's export: expected {"version","sessions","observations","prompts"}`)
	}
	var recs []*mneme.Record
	for i, o := range x.Observations {
		r, err := engramItem(in.Project, o, "observation", "content")
		if err != nil {
			return nil, lineError(f.Name, 0, "observation %d: %v", i+1, err)
		}
		if r != nil {
			recs = append(recs, r)
		}
	}
	for i, p := range x.Prompts {
		r, err := engramItem(in.Project, p, "prompt", "content")
		if err != nil {
			return nil, lineError(f.Name, 0, "prompt %d: %v", i+1, err)
		}
		recs = append(recs, r)
	}
	for i, s := range x.Sessions {
		if string(s["summary"]) == "" || string(s["summary"]) == "null" {
			continue
		}
		r, err := engramItem(in.Project, s, "session", "summary")
		if err != nil {
			return nil, lineError(f.Name, 0, "session %d: %v", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// engramItem maps one observation, prompt or session (what) whose text is
// the field textKey; nil for a deleted observation.
func engramItem(project string, m map[string]json.RawMessage, what, textKey string) (*mneme.Record, error) {
	s := map[string]string{}
	for k, raw := range m {
		var v string
		if json.Unmarshal(raw, &v) == nil {
			s[k] = v
		}
	}
	var num json.Number
	_ = json.Unmarshal(m["id"], &num)
	key := s["sync_id"]
	if key == "" {
		key = s["id"] + num.String()
	}
	if key == "" || s[textKey] == "" {
		return nil, mneme.Invalid("an Engram %s has an id and a %s", what, textKey)
	}
	if s["deleted_at"] != "" {
		return nil, nil
	}
	created, err := timeOf(s["created_at"] + s["started_at"])
	if err != nil {
		return nil, err
	}
	updated, err := timeOf(s["updated_at"] + s["ended_at"])
	if err != nil {
		return nil, err
	}
	r := &mneme.Record{ID: id("engram", what, key), Project: project, Type: mneme.Episodic, Kind: what, Title: s["title"], Text: s[textKey],
		SessionID: s["session_id"], CreatedAt: created, UpdatedAt: updated}
	if what == "session" {
		r.Kind, r.SessionID = "session_summary", s["id"]
	}
	if what == "observation" {
		r.Type, r.Kind, r.Key = mneme.Semantic, s["type"], s["topic_key"]
		if r.Kind == "" {
			r.Kind = "observation"
		}
	}
	if r.UpdatedAt.Before(r.CreatedAt) {
		r.UpdatedAt = r.CreatedAt
	}
	fields := map[string]any{"engram_id": key, "engram_project": s["project"]}
	for k, raw := range m {
		switch k {
		case "id", "sync_id", "title", textKey, "session_id", "created_at", "updated_at", "type", "topic_key", "project", "started_at", "ended_at":
		default:
			fields[k] = raw
		}
	}
	r.Meta = meta("engram", fields)
	return r, nil
}
