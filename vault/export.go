// Package vault materialises memories as a folder of Markdown files (an
// Obsidian vault, a git repository of notes) and reads such a folder back:
// one file per record, grouped by project, type and kind, with YAML front
// matter, [[wikilinks]] and a manifest.json.
package vault

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

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
// matter), even one the user moved; only files whose bytes change are
// written, each atomically. Files of records no longer exported are
// removed when they are as the last export left them.
//
// A re-export reads only the files that changed since the manifest was
// written: one the manifest lists and that last changed (its status change
// time, see changedAt) before it is as the manifest says (its sha256, id
// and stamp); and it renders only the records whose stamp differs from
// their file's.
func Export(ctx context.Context, eng *mneme.Engine, dir string, f mneme.Filter) (ExportResult, error) {
	var res ExportResult
	removeLeftovers(dir)
	if fresh(dir) {
		recs, err := collect(ctx, eng, f)
		if err != nil {
			return res, err
		}
		return exportFresh(ctx, recs, dir)
	}
	// The store is read while the vault is scanned: one waits on the
	// database, the other on the file system.
	type collected struct {
		recs []*mneme.Record
		err  error
	}
	got := make(chan collected, 1)
	go func() {
		recs, err := collect(ctx, eng, f)
		got <- collected{recs, err}
	}()
	root, old, w, err := scan(dir)
	var present map[string]*vfile
	var have map[string]string
	if err == nil { // indexed while the store is still being read
		present, have = make(map[string]*vfile, len(w.out)), filesByID(w.out, old)
		for i := range w.out {
			present[w.out[i].rel] = &w.out[i]
		}
	}
	c := <-got
	if err == nil {
		defer root.Close()
	}
	if err := cmp.Or(c.err, err); err != nil {
		return res, err
	}
	recs := c.recs
	paths := assignPaths(recs, w.out, have)
	name := func(id string) string {
		if p, ok := paths[id]; ok {
			return baseName(p)
		}
		return ""
	}
	m := newManifest()
	var writes []vfile
	for i, data := range renderAll(recs, name, present, paths) {
		r, rel, n := recs[i], paths[recs[i].ID], data.note
		res.Records++
		cur := present[rel]
		if n == nil { // the file the manifest vouches for is current
			m.addFile(r, ManifestFile{Path: rel, ID: r.ID, SHA256: cur.sha, Stamp: data.stamp})
			res.Unchanged++
			continue
		}
		sha := sum(n)
		m.addFile(r, ManifestFile{Path: rel, ID: r.ID, SHA256: sha, Stamp: data.stamp})
		if cur != nil && cur.same(n, sha) {
			res.Unchanged++
			continue
		}
		writes = append(writes, vfile{rel: rel, data: n})
	}
	out := newFolders(root)
	defer out.close()
	if err := out.writeAll(ctx, writes); err != nil {
		return res, err
	}
	res.Written = len(writes)
	removeStale(root, old, m, present, &res)
	manifest := m.encode()
	if len(writes) > 0 || string(manifest) != string(old.raw) { // newer than every file it vouches for
		return res, writeAtomic(root, ManifestName, manifest)
	}
	return res, nil
}

// scan opens dir and reads its manifest and files.
func scan(dir string) (*os.Root, *Manifest, walker, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, walker{}, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, walker{}, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	old := readManifest(root)
	w := walker{dir: dir, trust: old.trust(root)}
	if err := w.walk(root, ""); err != nil {
		root.Close()
		return nil, nil, walker{}, err
	}
	return root, old, w, nil
}

// fresh reports whether dir is not there yet, or an empty folder.
func fresh(dir string) bool {
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || !st.IsDir() {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// exportFresh writes a new vault in a temporary folder beside dir and
// renames it into place: the whole export appears at once (or not at
// all), and no file needs a rename of its own, which on some file
// systems costs more than the write.
func exportFresh(ctx context.Context, recs []*mneme.Record, dir string) (ExportResult, error) {
	res := ExportResult{Records: len(recs), Written: len(recs)}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return res, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	tmp, err := os.MkdirTemp(parent, tmpPrefix("."+filepath.Base(dir)+".tmp-"))
	if err != nil {
		return res, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	err = writeFresh(ctx, recs, tmp)
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		if rmErr := os.Remove(dir); rmErr != nil && !errors.Is(rmErr, fs.ErrNotExist) {
			err = rmErr
		}
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return res, err
}

func writeFresh(ctx context.Context, recs []*mneme.Record, tmp string) error {
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return err
	}
	defer root.Close()
	paths := assignPaths(recs, nil, nil)
	name := func(id string) string { return baseName(paths[id]) }
	m := newManifest()
	writes := make([]vfile, len(recs))
	for i, data := range renderAll(recs, name, nil, paths) {
		r, rel := recs[i], paths[recs[i].ID]
		m.addFile(r, ManifestFile{Path: rel, ID: r.ID, SHA256: sum(data.note), Stamp: data.stamp})
		writes[i] = vfile{rel: rel, data: data.note}
	}
	out := newFolders(root)
	out.direct = true // the folder is ours alone until the rename
	defer out.close()
	if err := out.writeAll(ctx, writes); err != nil {
		return err
	}
	return writeAtomic(root, ManifestName, m.encode())
}

// rendered is a record's stamp (stampOf) and its note, nil when the file
// it has in the vault is current: one the manifest vouches for (unchanged
// since the manifest was written) with the same stamp.
type rendered struct {
	stamp string
	note  []byte
}

// renderAll renders the records whose files are not current, on every
// core; present holds the vault's files and paths each record's file.
func renderAll(recs []*mneme.Record, name func(id string) string, present map[string]*vfile, paths map[string]string) []rendered {
	out := make([]rendered, len(recs))
	workers := min(runtime.GOMAXPROCS(0), 1+len(recs)/256)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var buf []byte
			for i := w; i < len(recs); i += workers {
				r := recs[i]
				out[i].stamp, buf = stampOf(r, name, buf)
				if cur := present[paths[r.ID]]; cur != nil && cur.trusted && cur.stamp == out[i].stamp && cur.id == r.ID {
					continue
				}
				out[i].note = render(r, name)
			}
		})
	}
	wg.Wait()
	return out
}

// same reports whether the file holds data (whose sha256 is sha).
func (vf *vfile) same(data []byte, sha string) bool {
	if vf.trusted {
		return vf.sha == sha
	}
	return string(vf.data) == string(data)
}

func (vf *vfile) sum() string {
	if vf.trusted {
		return vf.sha
	}
	return sum(vf.data)
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
// (have, see filesByID) wherever the user keeps it, else a new canonical
// name none of files has.
func assignPaths(recs []*mneme.Record, files []vfile, have map[string]string) map[string]string {
	out := make(map[string]string, len(recs))
	var fresh []*mneme.Record
	for _, r := range recs {
		if p, ok := have[r.ID]; ok {
			out[r.ID] = p
			continue
		}
		fresh = append(fresh, r)
	}
	taken := map[string]bool{}
	if len(fresh) > 0 {
		taken = make(map[string]bool, len(files)+len(fresh))
		for _, vf := range files {
			taken[vf.rel] = true
		}
	}
	for _, r := range fresh {
		p := canonicalPath(r, func(p string) bool { return taken[p] })
		taken[p] = true
		out[r.ID] = p
	}
	return out
}

// filesByID maps each record id the vault's files name to the first file
// (by path) naming it: in its front matter, else in the manifest (a
// hand-written note).
func filesByID(files []vfile, old *Manifest) map[string]string {
	var listed map[string]string // path → id, for notes that name none; made when needed
	have := make(map[string]string, len(files))
	for _, vf := range files {
		id := vf.id
		if !vf.trusted {
			if listed == nil {
				listed = make(map[string]string, len(old.Files))
				for _, f := range old.Files {
					listed[f.Path] = f.ID
				}
			}
			id = listed[vf.rel]
			if fid := frontMatterID(vf.data); fid != "" {
				id = fid
			}
		}
		if _, dup := have[id]; id != "" && !dup {
			have[id] = vf.rel
		}
	}
	return have
}

// frontMatterID is the id a file's front matter names: read from its
// second line when the file is as export writes it, else parsed.
func frontMatterID(data []byte) string {
	if rest, ok := strings.CutPrefix(string(data[:min(len(data), 64)]), "---\nid: "); ok {
		if id, _, ok := strings.Cut(rest, "\n"); ok && mneme.ValidID(id) {
			return id
		}
	}
	if p, err := parseFile(string(data)); err == nil && p.hasID {
		return p.rec.ID
	}
	return ""
}

// removeStale removes the files the last export wrote that no record holds
// now, unless they were edited since (their sha256 differs from the old
// manifest's): those are kept and reported.
func removeStale(root *os.Root, old, now *Manifest, present map[string]*vfile, res *ExportResult) {
	held := make(map[string]bool, len(now.Files))
	for _, f := range now.Files {
		held[f.Path] = true
	}
	for _, f := range old.Files {
		cur := present[f.Path]
		if held[f.Path] || cur == nil {
			continue
		}
		if cur.sum() != f.SHA256 {
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
