package importers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mneme-ai/mneme"
)

// The official MCP memory server (@modelcontextprotocol/server-memory)
// keeps its knowledge graph as JSON Lines: {"type":"entity","name",
// "entityType","observations":[…]} and {"type":"relation","from","to",
// "relationType"}. An entity is a record (its observations the text), a
// relation a link from one entity's record to the other's, its type kept
// in meta.
func init() {
	register(Format{Name: "mcp-memory", Summary: "the MCP memory server's knowledge graph (memory.jsonl): entities, observations, relations", Parse: parseMCPMemory})
}

type mcpLine struct {
	Type         string   `json:"type"`
	Name         string   `json:"name"`
	EntityType   string   `json:"entityType"`
	Observations []string `json:"observations"`
	From         string   `json:"from"`
	To           string   `json:"to"`
	RelationType string   `json:"relationType"`
}

func parseMCPMemory(in Input) ([]*mneme.Record, error) {
	f := in.Files[0]
	byName := map[string]*mneme.Record{}
	var recs []*mneme.Record
	type rel struct {
		l    mcpLine
		line int
	}
	var rels []rel
	sc := bufio.NewScanner(bytes.NewReader(f.Data))
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var raw map[string]json.RawMessage
		var l mcpLine
		if json.Unmarshal(sc.Bytes(), &raw) != nil || json.Unmarshal(sc.Bytes(), &l) != nil {
			return nil, lineError(f.Name, n, "not an entity or relation of the MCP memory server's graph (one JSON object per line)")
		}
		switch {
		case l.Type == "entity" && l.Name != "":
			if byName[l.Name] != nil {
				return nil, lineError(f.Name, n, "entity %q appears twice", mneme.Clip(l.Name))
			}
			r := entityRecord(in.Project, l, unknown(raw, "type", "name", "entityType", "observations"))
			byName[l.Name] = r
			recs = append(recs, r)
		case l.Type == "relation" && l.From != "" && l.To != "":
			rels = append(rels, rel{l, n})
		default:
			return nil, lineError(f.Name, n, `expected {"type":"entity","name":…} or {"type":"relation","from":…,"to":…}`)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, lineError(f.Name, n+1, "%v", err)
	}
	for _, r := range rels {
		from, to := byName[r.l.From], byName[r.l.To]
		if from == nil || to == nil {
			return nil, lineError(f.Name, r.line, "relation %q → %q names an entity the graph does not hold", mneme.Clip(r.l.From), mneme.Clip(r.l.To))
		}
		from.Links = append(from.Links, mneme.Link{Type: mneme.LinkRelatesTo, Target: to.ID})
		addRelation(from, r.l.RelationType, r.l.To)
	}
	if len(recs) == 0 {
		return nil, lineError(f.Name, 0, "no entities: this is not the MCP memory server's memory.jsonl")
	}
	return recs, nil
}

func entityRecord(project string, l mcpLine, extra map[string]json.RawMessage) *mneme.Record {
	text := strings.Join(l.Observations, "\n")
	if strings.TrimSpace(text) == "" {
		text = l.Name + " (" + l.EntityType + ")"
	}
	r := &mneme.Record{ID: id("mcp-memory", l.Name), Project: project, Type: mneme.Semantic, Kind: "entity",
		Title: l.Name, Text: text, Meta: meta("mcp-memory", map[string]any{"entity_type": l.EntityType, "name": l.Name, "unknown": extra})}
	if t := tag(l.EntityType); t != "" {
		r.Tags = []string{t}
	}
	return r
}

// addRelation keeps a relation's type in meta.relations.
func addRelation(r *mneme.Record, typ, to string) {
	var m map[string]any
	_ = json.Unmarshal(r.Meta, &m) // meta() wrote it
	rels, _ := m["relations"].([]any)
	m["relations"] = append(rels, map[string]string{"type": typ, "to": to})
	r.Meta, _ = json.Marshal(m)
}
