package importers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mneme-ai/mneme"
)

// The records.jsonl of a vector-memory layer: one JSON object per line,
// each a learning, a handoff note, a critic finding or a research decision
// with its provenance and phase. No public specification was found, so
// this reads the common shape: "id", the text in "text" or "content", the
// kind in "kind", "type" or "category", "provenance", "phase", "tags",
// "project", "session_id", and the time in "created_at" or "timestamp".
// A handoff is episodic, the rest semantic; provenance is kept as mneme's
// when it is one of verified, cited, assumed, cached, and in meta always;
// the phase is a tag (phase:NAME) and meta; every other field is meta.
func init() {
	register(Format{Name: "records-jsonl", Summary: "a vector-memory layer's records.jsonl: learnings, handoff notes, critic findings, research decisions with provenance and phase", Parse: parseRecordsJSONL})
}

func parseRecordsJSONL(in Input) ([]*mneme.Record, error) {
	f := in.Files[0]
	var recs []*mneme.Record
	sc := bufio.NewScanner(bytes.NewReader(f.Data))
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, lineError(f.Name, n, "not a JSON object")
		}
		r, err := layerRecord(in.Project, m, sc.Bytes())
		if err != nil {
			return nil, lineError(f.Name, n, "%s", mneme.ErrorMessage(err))
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, lineError(f.Name, n+1, "%v", err)
	}
	if len(recs) == 0 {
		return nil, lineError(f.Name, 0, "no records")
	}
	return recs, nil
}

var layerKnown = []string{"id", "text", "content", "kind", "type", "category", "provenance", "phase", "tags", "project", "session_id", "created_at", "timestamp"}

func layerRecord(project string, m map[string]json.RawMessage, line []byte) (*mneme.Record, error) {
	s := map[string]string{}
	for _, k := range layerKnown {
		var v string
		if raw, ok := m[k]; ok && json.Unmarshal(raw, &v) != nil && k != "tags" && string(raw) != "null" {
			return nil, mneme.Invalid("%s is not a string", k)
		}
		s[k] = v
	}
	text := first(s["text"], s["content"])
	kind := tag(first(s["kind"], s["type"], s["category"]))
	if text == "" || kind == "" {
		return nil, mneme.Invalid(`a record has its text ("text" or "content") and its kind ("kind", "type" or "category"): this is not a vector-memory layer's records.jsonl`)
	}
	var tags []string
	if raw, ok := m["tags"]; ok && json.Unmarshal(raw, &tags) != nil {
		return nil, mneme.Invalid("tags is not a list of strings")
	}
	created, err := timeOf(first(s["created_at"], s["timestamp"]))
	if err != nil {
		return nil, err
	}
	key := s["id"]
	if key == "" {
		key = string(bytes.TrimSpace(line)) // no id: the line itself is the identity
	}
	r := &mneme.Record{ID: id("records-jsonl", key), Project: project, Type: mneme.Semantic, Kind: kind, Text: text,
		SessionID: s["session_id"], CreatedAt: created, UpdatedAt: created}
	if strings.Contains(kind, "handoff") {
		r.Type = mneme.Episodic
	}
	if p, err := mneme.ParseProvenance(s["provenance"]); err == nil && s["provenance"] != "" {
		r.Provenance = p
	}
	for _, t := range tags {
		if t = tag(t); t != "" {
			r.Tags = append(r.Tags, t)
		}
	}
	if s["phase"] != "" {
		r.Tags = append(r.Tags, "phase:"+tag(s["phase"]))
	}
	r.Meta = meta("records-jsonl", map[string]any{"source_id": s["id"], "provenance": s["provenance"], "phase": s["phase"],
		"source_project": s["project"], "unknown": unknown(m, layerKnown...)})
	return r, nil
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
