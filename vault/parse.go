package vault

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// parsed is one vault file read back: the record, and its links by the
// file names they show (resolved once every file is read).
type parsed struct {
	rec      *mneme.Record
	links    []rawLink
	props    []property // Obsidian's own properties, kept in meta
	metaLine int
	hasID    bool
}

type rawLink struct {
	Type, Name string
	Line       int
}

// parseFile reads a vault file. A file without front matter is a note: its
// heading is the title, the rest the text.
func parseFile(data string) (*parsed, error) {
	p := &parsed{rec: &mneme.Record{}}
	body, bodyLine := data, 1
	if strings.HasPrefix(data, "---\n") || strings.HasPrefix(data, "---\r\n") {
		lines := strings.Split(data, "\n")
		end := -1
		for i := 1; i < len(lines); i++ {
			if strings.TrimRight(lines[i], "\r") == "---" {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, errAt(1, "the front matter that starts here has no closing --- line")
		}
		fm := make([]string, end-1)
		for i := range fm {
			fm[i] = strings.TrimRight(lines[i+1], "\r")
		}
		fields, err := parseFrontMatter(fm, 2)
		if err != nil {
			return nil, err
		}
		untitled, err := p.apply(fields)
		if err != nil {
			return nil, err
		}
		body, bodyLine = strings.Join(lines[end+1:], "\n"), end+2
		p.body(body, untitled)
	} else {
		p.body(body, false)
	}
	if strings.TrimSpace(p.rec.Text) == "" {
		return nil, errAt(bodyLine, "the note has no text under its heading")
	}
	return p, nil
}

// body splits "\n# heading\n\ntext\n" into the title and the text.
func (p *parsed) body(b string, untitled bool) {
	b = strings.TrimPrefix(b, "\n")
	if strings.HasPrefix(b, "# ") {
		head, rest, _ := strings.Cut(b, "\n")
		if !untitled && p.rec.Title == "" {
			p.rec.Title = strings.TrimSpace(strings.TrimPrefix(head, "# "))
		}
		b = strings.TrimPrefix(rest, "\n")
	}
	p.rec.Text = strings.TrimSuffix(b, "\n")
}

// apply sets the record's fields from the front matter; it reports
// whether the note says it has no title.
func (p *parsed) apply(fields []field) (untitled bool, err error) {
	r := p.rec
	for _, f := range fields {
		if slices.Contains(linkKeys, f.Key) {
			if err := p.addLinks(f); err != nil {
				return false, err
			}
			continue
		}
		switch f.Key {
		case "tags":
			if f.Kind == kindScalar { // Obsidian also accepts one tag as a string
				f.List, f.Kind = []string{f.Scalar}, kindList
			}
			if err := want(f, kindList); err != nil {
				return false, err
			}
			r.Tags = f.List
		case "source":
			if err := want(f, kindMap); err != nil {
				return false, err
			}
			if r.Source, err = parseSource(f.Map); err != nil {
				return false, err
			}
		case "aliases", "cssclasses":
			if f.Kind == kindScalar { // Obsidian also accepts one value as a string
				f.List, f.Kind = []string{f.Scalar}, kindList
			}
			if err := want(f, kindList); err != nil {
				return false, err
			}
			p.props = append(p.props, property{f.Key, f.List})
		case "meta", "promotions":
			if err := p.jsonField(f); err != nil {
				return false, err
			}
		case "untitled":
			untitled = f.Scalar == "true"
		default:
			if err := p.scalarField(f); err != nil {
				return false, err
			}
		}
	}
	if r.Meta, err = joinMeta(r.Meta, p.props); err != nil {
		return false, errAt(p.metaLine, "meta: %v", err)
	}
	p.hasID = r.ID != ""
	return untitled, nil
}

func (p *parsed) scalarField(f field) error {
	r := p.rec
	if f.Kind == kindNull {
		return nil
	}
	if err := want(f, kindScalar); err != nil {
		return err
	}
	v := f.Scalar
	strs := map[string]*string{"id": &r.ID, "project": &r.Project, "kind": &r.Kind, "title": &r.Title,
		"key": &r.Key, "speaker": &r.Speaker, "session_id": &r.SessionID, "run_id": &r.RunID,
		"type": (*string)(&r.Type), "status": (*string)(&r.Status), "provenance": (*string)(&r.Provenance),
		"sensitivity": (*string)(&r.Sensitivity)}
	if s, ok := strs[f.Key]; ok {
		*s = v
		return nil
	}
	times := map[string]**time.Time{"occurred": &r.OccurredAt, "expires": &r.ExpiresAt}
	t, err := parseStamp(v)
	if err != nil && (times[f.Key] != nil || f.Key == "created" || f.Key == "updated") {
		return errAt(f.Line, "%s: %q is not a time like 2026-01-02T15:04:05Z", f.Key, clip(v))
	}
	switch f.Key {
	case "created":
		r.CreatedAt = t
	case "updated":
		r.UpdatedAt = t
	case "occurred", "expires":
		*times[f.Key] = &t
	default:
		return errAt(f.Line, "unknown key %q: the keys are id, project, type, kind, title, untitled, tags, aliases, cssclasses, key, status, provenance, sensitivity, speaker, session_id, run_id, created, updated, occurred, expires, source, %s, meta and promotions (put other properties in meta)", f.Key, strings.Join(linkKeys, ", "))
	}
	return nil
}

func parseStamp(v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		t, err = time.Parse("2006-01-02", v)
	}
	return t.UTC(), err
}

func (p *parsed) jsonField(f field) error {
	if f.Kind == kindNull {
		return nil
	}
	raw := stripComment(f.Raw)
	if f.Kind != kindScalar || !json.Valid([]byte(raw)) {
		return errAt(f.Line, "%s must be JSON on one line, like %s: {\"ticket\": \"ENG-1\"}", f.Key, f.Key)
	}
	if f.Key == "meta" {
		p.rec.Meta, p.metaLine = json.RawMessage(raw), f.Line
		return nil
	}
	if err := json.Unmarshal([]byte(raw), &p.rec.Promotions); err != nil {
		return errAt(f.Line, "promotions: %v", err)
	}
	return nil
}

func (p *parsed) addLinks(f field) error {
	if err := want(f, kindList); err != nil {
		return err
	}
	for _, it := range f.List {
		name, ok := strings.CutPrefix(it, "[[")
		name, ok2 := strings.CutSuffix(name, "]]")
		if !ok || !ok2 || name == "" {
			return errAt(f.Line, "%s: %q is not a [[wikilink]]", f.Key, clip(it))
		}
		name, _, _ = strings.Cut(name, "|") // [[name|alias]]
		p.links = append(p.links, rawLink{Type: f.Key, Name: strings.TrimSuffix(name, ".md"), Line: f.Line})
	}
	return nil
}

func parseSource(pairs []pair) (*mneme.Source, error) {
	s := &mneme.Source{}
	for _, kv := range pairs {
		ints := map[string]*int{"line_start": &s.LineStart, "line_end": &s.LineEnd, "chunk": &s.Chunk}
		switch {
		case kv.Key == "uri":
			s.URI = kv.Value
		case kv.Key == "parent":
			s.Parent = kv.Value
		case ints[kv.Key] != nil:
			n, err := strconv.Atoi(kv.Value)
			if err != nil {
				return nil, errAt(kv.Line, "source.%s: %q is not a whole number", kv.Key, clip(kv.Value))
			}
			*ints[kv.Key] = n
		default:
			return nil, errAt(kv.Line, "unknown key source.%s: the keys are uri, line_start, line_end, parent and chunk", kv.Key)
		}
	}
	return s, nil
}

func want(f field, k fieldKind) error {
	if f.Kind == k || f.Kind == kindNull {
		return nil
	}
	what := map[fieldKind]string{kindScalar: "a single value", kindList: "a list", kindMap: "a map of key: value lines"}
	return errAt(f.Line, "%s must be %s", f.Key, what[k])
}

// FrontMatter splits a Markdown file into its front matter (in the subset
// parseFrontMatter reads: a value is a string, a []string or a
// map[string]string) and its body; a file without front matter is all
// body. For importers of other tools' notes.
func FrontMatter(data string) (map[string]any, string, error) {
	out := map[string]any{}
	if !strings.HasPrefix(data, "---\n") && !strings.HasPrefix(data, "---\r\n") {
		return out, data, nil
	}
	lines := strings.Split(data, "\n")
	for end := 1; end < len(lines); end++ {
		if strings.TrimRight(lines[end], "\r") != "---" {
			continue
		}
		fm := make([]string, end-1)
		for i := range fm {
			fm[i] = strings.TrimRight(lines[i+1], "\r")
		}
		fields, err := parseFrontMatter(fm, 2)
		if err != nil {
			return nil, "", err
		}
		for _, f := range fields {
			switch f.Kind {
			case kindScalar:
				out[f.Key] = f.Scalar
			case kindList:
				out[f.Key] = f.List
			case kindMap:
				m := map[string]string{}
				for _, p := range f.Map {
					m[p.Key] = p.Value
				}
				out[f.Key] = m
			}
		}
		return out, strings.Join(lines[end+1:], "\n"), nil
	}
	return nil, "", errAt(1, "the front matter that starts here has no closing --- line")
}
