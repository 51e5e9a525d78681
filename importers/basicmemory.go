package importers

import (
	"path"
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/vault"
)

// basic-memory's notes: a folder of Markdown files, each with front matter
// (title, type, tags, permalink, any other field), observations
// ("- [category] content #tag (context)") and relations ("- relation_type
// [[Other Note]] (context)"). A note is a record (the file's text), its
// type the kind; observations and relations are kept in meta, and a
// relation to a note of the folder is a link too.
func init() {
	register(Format{Name: "basic-memory", Dir: true, Summary: "basic-memory's Markdown notes (a folder): front matter, observations, relations", Parse: parseBasicMemory})
}

var (
	observationRE = regexp.MustCompile(`^\s*-\s+\[([^\]]+)\]\s+(.+?)(?:\s+\(([^)]*)\))?\s*$`)
	relationRE    = regexp.MustCompile(`^\s*-\s+([A-Za-z_][\w-]*)\s+\[\[([^\]]+)\]\](?:\s+\(([^)]*)\))?\s*$`)
	hashtagRE     = regexp.MustCompile(`(?:^|\s)#([\w-]+)`)
)

type bmNote struct {
	rec       *mneme.Record
	title     string
	permalink string
	relations []map[string]string
}

func parseBasicMemory(in Input) ([]*mneme.Record, error) {
	var notes []*bmNote
	for _, f := range in.Files {
		if !strings.HasSuffix(f.Name, ".md") {
			continue
		}
		n, err := bmParse(in.Project, f)
		if err != nil {
			return nil, err
		}
		notes = append(notes, n)
	}
	if len(notes) == 0 {
		return nil, mneme.Invalid("no Markdown notes in the folder: basic-memory keeps its notes as .md files")
	}
	byName := map[string]*bmNote{}
	for _, n := range notes {
		byName[strings.ToLower(n.title)], byName[strings.ToLower(n.permalink)] = n, n
	}
	recs := make([]*mneme.Record, len(notes))
	for i, n := range notes {
		for _, rel := range n.relations {
			if to := byName[strings.ToLower(rel["to"])]; to != nil && to != n {
				n.rec.Links = append(n.rec.Links, mneme.Link{Type: mneme.LinkRelatesTo, Target: to.rec.ID})
			}
		}
		recs[i] = n.rec
	}
	return recs, nil
}

func bmParse(project string, f File) (*bmNote, error) {
	fm, body, err := vault.FrontMatter(string(f.Data))
	if err != nil {
		return nil, lineError(f.Name, 0, "front matter: %v", err)
	}
	title, _ := fm["title"].(string)
	if title == "" {
		title = strings.TrimSuffix(path.Base(f.Name), ".md")
	}
	permalink, _ := fm["permalink"].(string)
	if permalink == "" {
		permalink = strings.TrimSuffix(f.Name, ".md")
	}
	kind, _ := fm["type"].(string)
	if kind == "" {
		kind = "note"
	}
	n := &bmNote{title: title, permalink: permalink}
	var observations []map[string]any
	for _, line := range strings.Split(body, "\n") {
		if m := relationRE.FindStringSubmatch(line); m != nil {
			n.relations = append(n.relations, map[string]string{"type": m[1], "to": m[2], "context": m[3]})
		} else if m := observationRE.FindStringSubmatch(line); m != nil {
			var tags []string
			for _, t := range hashtagRE.FindAllStringSubmatch(m[2], -1) {
				tags = append(tags, t[1])
			}
			observations = append(observations, map[string]any{"category": m[1], "content": m[2], "tags": tags, "context": m[3]})
		}
	}
	extra := map[string]any{}
	for k, v := range fm {
		if k != "title" && k != "type" && k != "tags" && k != "permalink" {
			extra[k] = v
		}
	}
	text := strings.TrimSpace(body)
	if text == "" {
		return nil, lineError(f.Name, 0, "the note has no text")
	}
	n.rec = &mneme.Record{ID: id("basic-memory", permalink), Project: project, Type: mneme.Semantic, Kind: tag(kind), Title: title, Text: text,
		Tags: bmTags(fm["tags"]), Source: &mneme.Source{URI: f.Name},
		Meta: meta("basic-memory", map[string]any{"permalink": permalink, "observations": observations, "relations": n.relations, "front_matter": extra})}
	return n, nil
}

// bmTags reads tags written as a list or a comma-separated string.
func bmTags(v any) []string {
	var raw []string
	switch t := v.(type) {
	case []string:
		raw = t
	case string:
		raw = strings.Split(t, ",")
	}
	var out []string
	for _, s := range raw {
		if s = tag(strings.TrimPrefix(strings.TrimSpace(s), "#")); s != "" {
			out = append(out, s)
		}
	}
	return out
}
