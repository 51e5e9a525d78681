// Package vault materialises memories as a folder of Markdown files (an
// Obsidian vault, a git repository of notes) and reads such a folder back:
// one file per record, grouped by project, type and kind, with YAML front
// matter, [[wikilinks]] and a manifest.json.
package vault

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
)

// ExportResult says what an export did.
type ExportResult struct {
	Records   int `json:"records"`
	Written   int `json:"written"`
	Unchanged int `json:"unchanged"`
	Removed   int `json:"removed"`
	// Kept lists files of records no longer exported that were edited
	// since the last export: left for the user (vault import reads them).
	Kept []string `json:"kept,omitempty"`
}

// Export writes the records f selects into dir (created if need be). A
// record keeps the file it has in the vault (found by the id in its front
// matter), even one the user moved; only files whose bytes
// change are written, each atomically. Files of records no longer exported
// are removed when they are as the last export left them.
func Export(ctx context.Context, eng *mneme.Engine, dir string, f mneme.Filter) (ExportResult, error) {
	var res ExportResult
	recs, err := collect(ctx, eng, f)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return res, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	defer root.Close()
	files, err := readVault(root, dir, false)
	if err != nil {
		return res, err
	}
	old := readManifest(root)
	paths := assignPaths(recs, files, old)
	existing := map[string][]byte{}
	for _, vf := range files {
		existing[vf.rel] = vf.data
	}
	name := func(id string) string {
		if p, ok := paths[id]; ok {
			return baseName(p)
		}
		return ""
	}
	out := newFolders(root)
	defer out.close()
	m := newManifest()
	for _, r := range recs {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		rel, data := paths[r.ID], render(r, name)
		m.add(rel, r, data)
		res.Records++
		if cur, ok := existing[rel]; ok && string(cur) == string(data) {
			res.Unchanged++
			continue
		}
		if err := out.write(rel, data); err != nil {
			return res, err
		}
		res.Written++
	}
	removeStale(root, old, m, existing, &res)
	if err := writeIfChanged(root, ManifestName, m.encode()); err != nil {
		return res, err
	}
	return res, nil
}

func collect(ctx context.Context, eng *mneme.Engine, f mneme.Filter) ([]*mneme.Record, error) {
	var recs []*mneme.Record
	err := eng.Each(ctx, f, func(r *mneme.Record) error {
		recs = append(recs, r)
		return nil
	})
	slices.SortFunc(recs, func(a, b *mneme.Record) int { return strings.Compare(a.ID, b.ID) })
	return recs, err
}

// assignPaths gives every record its file: the vault's file with its id
// (in its front matter, else in the manifest: a hand-written note) wherever
// the user keeps it, else a new canonical name.
func assignPaths(recs []*mneme.Record, files []vfile, old *Manifest) map[string]string {
	listed := map[string]string{} // path → id, for notes that name none
	for _, f := range old.Files {
		listed[f.Path] = f.ID
	}
	have := map[string]string{} // id → first file (by path) that names it
	for _, vf := range files {
		id := listed[vf.rel]
		if p, err := parseFile(string(vf.data)); err == nil && p.hasID {
			id = p.rec.ID
		}
		if _, dup := have[id]; id != "" && !dup {
			have[id] = vf.rel
		}
	}
	taken := map[string]bool{}
	for _, vf := range files {
		taken[vf.rel] = true
	}
	out := map[string]string{}
	var fresh []*mneme.Record
	for _, r := range recs {
		if p, ok := have[r.ID]; ok {
			out[r.ID] = p
			continue
		}
		fresh = append(fresh, r)
	}
	for _, r := range fresh {
		p := canonicalPath(r, func(p string) bool { return taken[p] })
		taken[p] = true
		out[r.ID] = p
	}
	return out
}

// removeStale removes the files the last export wrote that no record holds
// now, unless they were edited since (their sha256 differs from the old
// manifest's): those are kept and reported.
func removeStale(root *os.Root, old, now *Manifest, existing map[string][]byte, res *ExportResult) {
	held := map[string]bool{}
	for _, f := range now.Files {
		held[f.Path] = true
	}
	for _, f := range old.Files {
		data, ok := existing[f.Path]
		if held[f.Path] || !ok {
			continue
		}
		if sum(data) != f.SHA256 {
			res.Kept = append(res.Kept, f.Path)
			continue
		}
		if root.Remove(f.Path) == nil {
			res.Removed++
		}
	}
}

func writeIfChanged(root *os.Root, rel string, data []byte) error {
	if cur, err := root.ReadFile(rel); err == nil && string(cur) == string(data) {
		return nil
	}
	return writeAtomic(root, rel, data) // rel is a file at the top
}
