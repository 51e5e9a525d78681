package importers

import (
	"bytes"
	"encoding/json"

	"github.com/mneme-ai/mneme"
)

// mem0's memories as its client's get_all returns them ({"results":[…]},
// or the bare list): {"id","memory","hash","metadata","categories",
// "user_id","agent_id","app_id","run_id","created_at","updated_at"}. A
// memory is a semantic record; the run is its session, the rest is meta.
func init() {
	register(Format{Name: "mem0", Summary: "mem0's exported memories (get_all JSON: results with memory, metadata, categories)", Parse: parseMem0})
}

func parseMem0(in Input) ([]*mneme.Record, error) {
	f := in.Files[0]
	var list []map[string]json.RawMessage
	var wrapped struct {
		Results []map[string]json.RawMessage `json:"results"`
	}
	data := bytes.TrimSpace(f.Data)
	switch {
	case bytes.HasPrefix(data, []byte("[")):
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, lineError(f.Name, 0, "not a list of mem0 memories: %v", err)
		}
	case json.Unmarshal(data, &wrapped) == nil && wrapped.Results != nil:
		list = wrapped.Results
	default:
		return nil, lineError(f.Name, 0, `not mem0's export: expected {"results":[…]} or a list of memories`)
	}
	recs := make([]*mneme.Record, 0, len(list))
	for i, m := range list {
		r, err := mem0Record(in.Project, m)
		if err != nil {
			return nil, lineError(f.Name, 0, "memory %d: %v", i+1, err)
		}
		recs = append(recs, r)
	}
	return recs, nil
}

func mem0Record(project string, m map[string]json.RawMessage) (*mneme.Record, error) {
	var v struct {
		ID, Memory, Hash, UserID, AgentID, AppID, RunID string
		CreatedAt, UpdatedAt                            string
		Categories                                      []string
		Metadata                                        map[string]any
	}
	str := func(k string, p *string) error {
		if raw, ok := m[k]; ok && string(raw) != "null" {
			return json.Unmarshal(raw, p)
		}
		return nil
	}
	for k, p := range map[string]*string{"id": &v.ID, "memory": &v.Memory, "hash": &v.Hash, "user_id": &v.UserID, "agent_id": &v.AgentID,
		"app_id": &v.AppID, "run_id": &v.RunID, "created_at": &v.CreatedAt, "updated_at": &v.UpdatedAt} {
		if err := str(k, p); err != nil {
			return nil, mneme.Invalid("%s is not a string", k)
		}
	}
	if raw, ok := m["categories"]; ok && json.Unmarshal(raw, &v.Categories) != nil {
		return nil, mneme.Invalid("categories is not a list of strings")
	}
	if raw, ok := m["metadata"]; ok && json.Unmarshal(raw, &v.Metadata) != nil {
		return nil, mneme.Invalid("metadata is not an object")
	}
	if v.ID == "" || v.Memory == "" {
		return nil, mneme.Invalid(`a mem0 memory has an "id" and a "memory"`)
	}
	created, err := timeOf(v.CreatedAt)
	if err != nil {
		return nil, err
	}
	updated, err := timeOf(v.UpdatedAt)
	if err != nil {
		return nil, err
	}
	r := &mneme.Record{ID: id("mem0", v.ID), Project: project, Type: mneme.Semantic, Kind: "memory", Text: v.Memory,
		SessionID: v.RunID, CreatedAt: created, UpdatedAt: updated,
		Meta: meta("mem0", map[string]any{"mem0_id": v.ID, "hash": v.Hash, "user_id": v.UserID, "agent_id": v.AgentID, "app_id": v.AppID,
			"metadata": v.Metadata, "unknown": unknown(m, "id", "memory", "hash", "user_id", "agent_id", "app_id", "run_id", "created_at", "updated_at", "categories", "metadata")})}
	for _, c := range v.Categories {
		if t := tag(c); t != "" {
			r.Tags = append(r.Tags, t)
		}
	}
	if r.UpdatedAt.Before(r.CreatedAt) {
		r.UpdatedAt = r.CreatedAt
	}
	return r, nil
}
