package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// damagedFix is what to do about a damaged database file.
const damagedFix = "restore your last export into a new data directory (`mneme import FILE.jsonl --home NEWDIR`), or save what is still readable with `mneme repair --to NEWDIR`"

// marker is the content of MarkerFile.
type marker struct {
	DBID      string    `json:"db_id"`
	CreatedAt time.Time `json:"created_at"`
}

// prepareFile refuses a data directory whose database was lost (the
// marker is there, the database is missing or empty), and creates a new
// database file owner-only whatever the umask: SQLite gives its WAL and
// shared-memory files the database file's mode.
func prepareFile(home string) error {
	path := filepath.Join(home, FileName)
	st, err := os.Stat(path)
	switch {
	case err == nil && st.Size() > 0:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return mneme.Invalid("cannot read the database %s: %v", path, errors.Unwrap(err))
	}
	if m, found := readMarker(home); found {
		state := "missing"
		if err == nil {
			state = "empty (0 bytes)"
		}
		id := m.DBID
		if id == "" {
			id = "unknown"
		}
		mpath := filepath.Join(home, MarkerFile)
		return mneme.Errorf(mneme.EUNAVAILABLE, "the database %s is %s, but this data directory held a mneme database (id %s, according to %s): its memories were lost. Put back a copy of %s if you have one; or start anew: remove %s, then restore your last export with `mneme import FILE.jsonl`",
			path, state, id, mpath, FileName, mpath)
	}
	if err == nil {
		return nil // empty and never initialised: a first open that did not finish, or a concurrent one
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		return nil // another process created it first
	}
	if err == nil {
		err = f.Chmod(fileMode) // whatever the umask
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return mneme.Invalid("cannot create the database %s: %v; choose another data directory with --home or MNEME_HOME", path, errors.Unwrap(err))
	}
	return nil
}

// HoldsMemories reports whether the file name in a data directory is one
// of the store's files that hold memories (their text, words or vectors):
// the database, its journal files, the index snapshots and their
// temporary files. Others must not read them.
func HoldsMemories(name string) bool {
	switch name {
	case FileName, FileName + "-wal", FileName + "-shm", FileName + "-journal", IndexFile, VectorFile:
		return true
	}
	return strings.HasPrefix(name, IndexFile+".") || strings.HasPrefix(name, VectorFile+".")
}

// requireHome refuses a data directory that holds no mneme database (nor
// the marker of a lost one, which prepareFile reports): reading must not
// create a home, so a mistyped --home does not pass for an empty one.
func requireHome(home string) error {
	if st, err := os.Stat(filepath.Join(home, FileName)); err == nil && st.Size() > 0 {
		return nil
	}
	if _, found := readMarker(home); found {
		return prepareFile(home) // says the database was lost
	}
	return &mneme.Error{Code: mneme.EINVALID, Err: mneme.ErrNoHome, Message: fmt.Sprintf("%s is not a mneme data directory (it holds no %s): check --home and $MNEME_HOME; `mneme init --home %s` or a first write (`mneme remember`, `mneme import`, `mneme ingest`) creates one", home, FileName, home)}
}

// readMarker reads home's marker; found is false when there is none.
func readMarker(home string) (m marker, found bool) {
	data, err := os.ReadFile(filepath.Join(home, MarkerFile))
	if errors.Is(err, fs.ErrNotExist) {
		return m, false
	}
	json.Unmarshal(data, &m) // an unreadable marker still says the directory was a home
	return m, true
}

// writeMarker records that home holds the database dbID, unless it
// already says so.
func writeMarker(home, dbID string) error {
	if m, found := readMarker(home); found && m.DBID == dbID {
		return nil
	}
	data, _ := json.Marshal(marker{DBID: dbID, CreatedAt: time.Now().UTC().Truncate(time.Second)})
	return writeFileAtomic(home, MarkerFile, append(data, '\n'))
}

// writeFileAtomic writes data to home/name owner-only, through a
// temporary file renamed over it.
func writeFileAtomic(home, name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(home, name+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(fileMode); err == nil {
		_, err = tmp.Write(data)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(home, name))
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
