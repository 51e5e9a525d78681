package vault

import (
	"strings"

	"github.com/mneme-ai/mneme"
)

// parseAll parses every file into a record ready to store: project
// defaulted, id given (or derived from the path), validated, links
// resolved to ids. The first problem names its file (and line).
func parseAll(files []vfile, project string) ([]note, error) {
	notes := make([]note, 0, len(files))
	byID := map[string]string{}
	for _, vf := range files {
		p, err := parseFile(string(vf.data))
		if err != nil {
			return nil, fileError(vf.rel, err)
		}
		r := p.rec
		if r.Project == "" {
			r.Project = project
		}
		if r.Project == "" {
			r.Project = mneme.DefaultProject
		}
		if r.ID == "" {
			r.ID = derivedID(r.Project, vf.rel)
		}
		if other, dup := byID[r.ID]; dup {
			return nil, mneme.Invalid("%s: id %s is also the id of %s: each record has one file; nothing was written", vf.rel, r.ID, other)
		}
		byID[r.ID] = vf.rel
		notes = append(notes, note{rel: vf.rel, data: vf.data, p: p})
	}
	if err := resolveLinks(notes); err != nil {
		return nil, err
	}
	for _, n := range notes {
		if err := mneme.Prepare(n.p.rec); err != nil {
			return nil, fileError(n.rel, err)
		}
	}
	return notes, nil
}

// resolveLinks turns each [[name]] into the id of the file with that name
// (case-insensitive, as Obsidian matches), or the id it spells.
func resolveLinks(notes []note) error {
	byName := map[string]string{}
	for _, n := range notes {
		k := strings.ToLower(baseName(n.rel))
		if _, dup := byName[k]; dup {
			byName[k] = "" // ambiguous: a link to it is refused
			continue
		}
		byName[k] = n.p.rec.ID
	}
	for _, n := range notes {
		for _, l := range n.p.links {
			id, ok := byName[strings.ToLower(l.Name)]
			switch {
			case ok && id == "":
				return fileError(n.rel, errAt(l.Line, "[[%s]] names more than one file of the vault: rename one", l.Name))
			case !ok && mneme.ValidID(l.Name):
				id = l.Name
			case !ok:
				return fileError(n.rel, errAt(l.Line, "[[%s]] names no file of the vault", clip(l.Name)))
			}
			n.p.rec.Links = append(n.p.rec.Links, mneme.Link{Type: l.Type, Target: id})
		}
	}
	return nil
}

// linkNames is the link name of each note's id: its file name.
func linkNames(notes []note) func(string) string {
	m := make(map[string]string, len(notes))
	for _, n := range notes {
		m[n.p.rec.ID] = baseName(n.rel)
	}
	return func(id string) string { return m[id] }
}
