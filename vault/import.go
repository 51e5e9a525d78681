package vault

import (
	"context"
	"errors"
	"os"

	"github.com/mneme-ai/mneme"
)

// ImportOptions say how a vault is read back.
type ImportOptions struct {
	// Project is the project of notes whose front matter names none.
	Project string
	// Sync forgets the records whose files were deleted from the vault
	// (the manifest lists them); without it they are only counted.
	Sync  bool
	Write mneme.WriteOptions
}

// ImportResult says what an import did.
type ImportResult struct {
	Files     int `json:"files"`
	Inserted  int `json:"inserted"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	// Deleted counts the records whose files are gone from the vault;
	// Forgotten those of them forgotten (--sync).
	Deleted           int    `json:"deleted"`
	Forgotten         int    `json:"forgotten"`
	PendingEmbeddings int    `json:"pending_embeddings,omitempty"`
	PendingReason     string `json:"pending_reason,omitempty"`
}

type note struct {
	rel  string
	data []byte
	p    *parsed
}

// Import reads every Markdown file of dir and writes what changed: an
// edited file updates its record (its updated time becomes now), a new
// file becomes a record (a file without an id gets one derived from its
// path, so importing it again changes nothing). Every file is read and
// checked before the first write: bad input names the file (and line) and
// nothing is written.
func Import(ctx context.Context, eng *mneme.Engine, dir string, o ImportOptions) (ImportResult, error) {
	var res ImportResult
	if o.Project != "" {
		if err := mneme.ValidateProject(o.Project); err != nil {
			return res, err
		}
	}
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return res, mneme.Invalid("%s is not a folder: vault import reads a folder of Markdown files", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return res, mneme.Invalid("vault folder %s: %v", dir, err)
	}
	defer root.Close()
	files, err := readVault(root, dir, true)
	if err != nil {
		return res, err
	}
	notes, err := parseAll(files, o.Project)
	if err != nil {
		return res, err
	}
	res.Files = len(notes)
	changed, err := diff(ctx, eng, notes, &res)
	if err != nil {
		return res, err
	}
	if len(changed) > 0 {
		batch := make([]*mneme.Record, len(changed))
		for i, n := range changed {
			batch[i] = n.p.rec
		}
		w, err := eng.Import(ctx, batch, o.Write)
		if be := (*mneme.BatchError)(nil); errors.As(err, &be) {
			return res, fileError(changed[be.Index].rel, be.Err)
		}
		if err != nil {
			return res, err
		}
		res.Inserted, res.Updated = w.Inserted, w.Updated
		res.Unchanged += w.SkippedDuplicates
		res.PendingEmbeddings, res.PendingReason = w.PendingEmbeddings, w.PendingReason
	}
	gone, err := deleted(ctx, eng, root, notes)
	if err != nil {
		return res, err
	}
	res.Deleted = len(gone)
	if o.Sync && len(gone) > 0 {
		ids := make([]string, len(gone))
		for i, f := range gone {
			ids[i] = f.ID
		}
		fr, err := eng.Forget(ctx, mneme.ForgetRequest{IDs: ids})
		if err != nil {
			return res, err
		}
		res.Forgotten, gone = fr.Forgotten, nil
	}
	return res, writeIfChanged(root, ManifestName, importManifest(notes, gone, readManifest(root)).encode())
}

// diff sets each note's record up as it would be stored and returns the
// notes that differ from their stored record (or have none).
func diff(ctx context.Context, eng *mneme.Engine, notes []note, res *ImportResult) ([]note, error) {
	names := linkNames(notes)
	var changed []note
	now := eng.Now()
	for _, n := range notes {
		r := n.p.rec
		old, err := eng.Get(ctx, r.ID, mneme.Secret)
		switch {
		case mneme.ErrorCode(err) == mneme.ENOTFOUND:
			old = nil
		case err != nil:
			return nil, err
		}
		if old != nil {
			// The file's updated time is not an edit: after an edit was
			// imported the file shows the time before it until the next
			// export.
			r.UpdatedAt = old.UpdatedAt
			if string(render(old, names)) == string(render(r, names)) {
				res.Unchanged++
				continue
			}
			r.UpdatedAt = now // edited in the vault: updated now
		}
		changed = append(changed, n)
	}
	return changed, nil
}

// deleted lists the manifest's files whose records are no longer in the
// vault and still stored.
func deleted(ctx context.Context, eng *mneme.Engine, root *os.Root, notes []note) ([]ManifestFile, error) {
	present := map[string]bool{}
	for _, n := range notes {
		present[n.p.rec.ID] = true
	}
	var out []ManifestFile
	for _, f := range readManifest(root).Files {
		if present[f.ID] {
			continue
		}
		_, err := eng.Get(ctx, f.ID, mneme.Secret)
		switch {
		case mneme.ErrorCode(err) == mneme.ENOTFOUND:
			continue
		case err != nil:
			return nil, err
		}
		f.Missing = true
		out = append(out, f)
	}
	return out, nil
}

// importManifest is the manifest of the vault import read. A file as the
// last export left it (same sha256) keeps its stamp: the stamp says what
// renders to those bytes, whichever home the record is in.
func importManifest(notes []note, gone []ManifestFile, old *Manifest) *Manifest {
	stamps := map[string]string{}
	for _, f := range old.Files {
		stamps[f.Path+"\x00"+f.SHA256] = f.Stamp
	}
	m := newManifest()
	for _, n := range notes {
		sha := sum(n.data)
		m.addFile(n.p.rec, ManifestFile{Path: n.rel, ID: n.p.rec.ID, SHA256: sha, Stamp: stamps[n.rel+"\x00"+sha]})
	}
	m.Files = append(m.Files, gone...)
	return m
}
