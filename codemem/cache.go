package codemem

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zeebo/xxh3"
)

// FormatVersion is the artifact's format: an artifact of another version
// is not read, and the repository is rebuilt cold.
const FormatVersion = 3

// Cache defaults.
const (
	DefaultTTL      = 24 * time.Hour
	DefaultMaxRepos = 64
)

// magic opens every artifact file; then the format version (uint32), the
// xxh3 of the body (uint64) and the body (gob).
const magic = "MNEMECODE"

// artifact is what is kept per repository.
type artifact struct {
	Root    string    // canonical root
	Built   time.Time // when it was built cold: the TTL runs from here
	Entries []Entry   // sorted by path
	Compact *Slice    // the compact context slice of Entries, built when they were written
}

// errVersion is an artifact written in another format.
var errVersion = errors.New("artifact format version differs")

// CacheDir is the artifacts' directory: $XDG_CACHE_HOME/mneme/code, else
// ~/.cache/mneme/code. getenv reads the environment (the library never
// does it itself).
func CacheDir(getenv func(string) string) string {
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "mneme", "code")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".cache", "mneme", "code")
}

// artifactPath is the file of the repository id in dir.
func artifactPath(dir, id string) string { return filepath.Join(dir, id+".art") }

// load reads an artifact; a missing file is (nil, nil), a torn or foreign
// one an error, a version mismatch errVersion.
func load(file string) (*artifact, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	head := len(magic) + 4 + 8
	if len(data) < head || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%s: not an artifact", file)
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != FormatVersion {
		return nil, errVersion
	}
	body := data[head:]
	if binary.LittleEndian.Uint64(data[len(magic)+4:]) != xxh3.Hash(body) {
		return nil, fmt.Errorf("%s: checksum mismatch (torn write)", file)
	}
	var a artifact
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&a); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &a, nil
}

// store writes a atomically: a temporary file in the same directory, then
// renamed over the old one, so a reader sees the old artifact or the new
// one, never part of one. It is not synced: after a crash the file may
// hold anything, and the checksum makes load refuse it (a cold rebuild of
// a cache, not lost data), which is cheaper than an fsync on every delta.
func store(file string, a *artifact) error {
	var body bytes.Buffer
	if err := gob.NewEncoder(&body).Encode(a); err != nil {
		return err
	}
	out := make([]byte, len(magic)+12, len(magic)+12+body.Len())
	copy(out, magic)
	binary.LittleEndian.PutUint32(out[len(magic):], FormatVersion)
	binary.LittleEndian.PutUint64(out[len(magic)+4:], xxh3.Hash(body.Bytes()))
	out = append(out, body.Bytes()...)
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(out)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	return err
}

// touch marks an artifact used now, for the LRU.
func touch(file string, now time.Time) { os.Chtimes(file, now, now) }

// evict removes the least recently used artifacts of dir beyond keep.
func evict(dir string, keep int) (removed []string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type art struct {
		name string
		used time.Time
	}
	var arts []art
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".art") {
			continue
		}
		if fi, err := e.Info(); err == nil {
			arts = append(arts, art{e.Name(), fi.ModTime()})
		}
	}
	if len(arts) <= keep {
		return nil
	}
	sort.Slice(arts, func(i, j int) bool {
		if !arts[i].used.Equal(arts[j].used) {
			return arts[i].used.Before(arts[j].used)
		}
		return arts[i].name < arts[j].name
	})
	for _, a := range arts[:len(arts)-keep] {
		if os.Remove(filepath.Join(dir, a.name)) == nil {
			removed = append(removed, strings.TrimSuffix(a.name, ".art"))
		}
	}
	return removed
}
