package vault

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// linkKeys are the front matter keys that hold links, one per link type,
// each a list of "[[file name]]" (Obsidian resolves them).
var linkKeys = []string{mneme.LinkDerivedFrom, mneme.LinkSupersedes, mneme.LinkRelatesTo, mneme.LinkFollows}

// render is r as a vault file; name gives the file name (without .md) a
// link to a record id shows, or "" when the record is not in the vault.
func render(r *mneme.Record, name func(id string) string) []byte {
	var w fmWriter
	w.b.Grow(512 + len(r.Text))
	w.b.WriteString("---\n")
	w.scalar("id", r.ID)
	w.scalar("project", r.Project)
	w.scalar("type", string(r.Type))
	w.scalar("kind", r.Kind)
	heading, inHeading := headingOf(r)
	if !inHeading && r.Title != "" {
		w.scalar("title", r.Title)
	}
	if r.Title == "" {
		w.raw("untitled", "true")
	}
	w.list("tags", r.Tags)
	w.scalar("key", r.Key)
	w.scalar("status", string(r.Status))
	w.scalar("provenance", string(r.Provenance))
	w.scalar("sensitivity", string(r.Sensitivity))
	w.scalar("speaker", r.Speaker)
	w.scalar("session_id", r.SessionID)
	w.scalar("run_id", r.RunID)
	w.scalar("created", stamp(&r.CreatedAt))
	w.scalar("updated", stamp(&r.UpdatedAt))
	w.scalar("occurred", stamp(r.OccurredAt))
	w.scalar("expires", stamp(r.ExpiresAt))
	w.mapping("source", sourcePairs(r.Source))
	for _, lt := range linkKeys {
		var items []string
		for _, l := range r.Links {
			if l.Type == lt {
				items = append(items, "[["+linkName(l.Target, name)+"]]")
			}
		}
		w.list(lt, items)
	}
	props, meta := splitMeta(r.Meta)
	for _, p := range props {
		w.list(p.key, p.items)
	}
	if len(meta) > 0 {
		w.raw("meta", string(meta))
	}
	if len(r.Promotions) > 0 {
		b, _ := json.Marshal(r.Promotions) // plain data: always encodes
		w.raw("promotions", string(b))
	}
	w.b.WriteString("---\n\n# " + heading + "\n\n" + r.Text + "\n")
	return []byte(w.b.String())
}

func linkName(id string, name func(string) string) string {
	if n := name(id); n != "" {
		return n
	}
	return id
}

// headingOf is the heading line of r's file, and whether it holds the
// title exactly (else the title, if any, goes in the front matter).
func headingOf(r *mneme.Record) (string, bool) {
	t := r.Title
	if t != "" && t == strings.TrimSpace(t) && !strings.ContainsAny(t, "\r\n") {
		return t, true
	}
	if t == "" {
		t = r.Text
	}
	line, _, _ := strings.Cut(strings.TrimSpace(t), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 80 {
		line = string(r[:77]) + "..."
	}
	return line, false
}

func stamp(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func sourcePairs(s *mneme.Source) []pair {
	if s == nil {
		return nil
	}
	var out []pair
	add := func(k, v string) {
		if v != "" && v != "0" {
			out = append(out, pair{Key: k, Value: v})
		}
	}
	add("uri", s.URI)
	add("line_start", strconv.Itoa(s.LineStart))
	add("line_end", strconv.Itoa(s.LineEnd))
	add("parent", s.Parent)
	add("chunk", strconv.Itoa(s.Chunk))
	return out
}
