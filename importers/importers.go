// Package importers reads the memories of other tools into records: a
// small registry of formats (`mneme import --from FORMAT FILE|DIR`). Each
// format maps what it can onto record fields and keeps every other field
// in meta, never dropping one silently; ids are derived from the source's
// own identity, so importing twice changes nothing.
package importers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// Format is one tool's export format.
type Format struct {
	Name    string
	Summary string
	// Dir: the format is a folder of files (else one file); Either: a
	// file or a folder.
	Dir, Either bool
	// RepoProject: without --project, the records go to the project of
	// the repository the path is in, as the hooks name it (so the
	// session-start package finds them).
	RepoProject bool
	// Replaces: an import stands for its files as they are now, so the
	// records an earlier import made from a part since removed are
	// forgotten (see Removed).
	Replaces bool
	// Read, when set, reads path its own way (else Read below does).
	Read  func(path string) ([]File, error)
	Parse func(in Input) ([]*mneme.Record, error)
}

// Input is what an import reads: one file, or the files of a folder.
type Input struct {
	Project string // of the records (the formats' own projects go to meta)
	Files   []File
}

// File is one file of the input, named relative to the folder (or by its
// base name).
type File struct {
	Name string
	Data []byte
}

var formats = map[string]Format{}

func register(f Format) { formats[f.Name] = f }

// Lookup is the format called name.
func Lookup(name string) (Format, bool) {
	f, ok := formats[name]
	return f, ok
}

// Names lists the formats, sorted.
func Names() []string {
	out := make([]string, 0, len(formats))
	for n := range formats {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MaxInputBytes bounds what an import reads.
const MaxInputBytes = 256 << 20

// Read reads path for f: the file, or every regular file of the folder
// (symbolic links are not followed, names starting with a dot skipped).
func Read(f Format, path, project string) (Input, error) {
	in := Input{Project: project}
	if f.Read != nil {
		files, err := f.Read(path)
		in.Files = files
		return in, err
	}
	st, err := os.Lstat(path)
	if err != nil {
		return in, mneme.Invalid("%s: %v", path, err)
	}
	if f.Dir != st.IsDir() {
		want := map[bool]string{true: "a folder", false: "a file"}[f.Dir]
		return in, mneme.Invalid("%s: --from %s reads %s", path, f.Name, want)
	}
	if !f.Dir {
		if !st.Mode().IsRegular() || st.Size() > MaxInputBytes {
			return in, mneme.Invalid("%s: not a regular file of at most %d MiB", path, MaxInputBytes>>20)
		}
		data, err := os.ReadFile(path)
		in.Files = []File{{Name: filepath.Base(path), Data: data}}
		return in, err
	}
	total := int64(0)
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > MaxInputBytes {
			return mneme.Invalid("%s: more than %d MiB", path, MaxInputBytes>>20)
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(path, p)
		in.Files = append(in.Files, File{Name: filepath.ToSlash(rel), Data: data})
		return err
	})
	return in, err
}

// Counts are what an import brought, by type and kind.
type Counts struct {
	Records int            `json:"records"`
	Types   map[string]int `json:"types"`
	Kinds   map[string]int `json:"kinds"`
}

// Count counts recs by type and kind.
func Count(recs []*mneme.Record) Counts {
	c := Counts{Records: len(recs), Types: map[string]int{}, Kinds: map[string]int{}}
	for _, r := range recs {
		t := r.Type
		if t == "" {
			t = mneme.Semantic
		}
		c.Types[string(t)]++
		if r.Kind != "" {
			c.Kinds[r.Kind]++
		}
	}
	return c
}

// id is the record id of a source item: a UUID (version 8) derived from
// the format and the item's identity in it.
func id(parts ...string) string {
	h := sha256.Sum256([]byte("mneme-import\x00" + strings.Join(parts, "\x00")))
	h[6] = h[6]&0x0f | 0x80
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}

// meta is the record's meta: the source format, then fields.
func meta(format string, fields map[string]any) json.RawMessage {
	m := map[string]any{"source_format": format}
	for k, v := range fields {
		if v != nil && v != "" {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m) // decoded JSON and strings: always encodes
	return b
}

// unknown is every key of obj that known does not list: kept in meta.
func unknown(obj map[string]json.RawMessage, known ...string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range obj {
		if !slices.Contains(known, k) {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// timeOf parses the times other tools write: RFC 3339 (with or without a
// zone), SQLite's datetime, a date. Zero when s is empty.
func timeOf(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time", s)
}

// lineError names the file and line of bad input.
func lineError(file string, line int, format string, a ...any) error {
	if line > 0 {
		return mneme.Invalid("%s: line %d: %s", file, line, fmt.Sprintf(format, a...))
	}
	return mneme.Invalid("%s: %s", file, fmt.Sprintf(format, a...))
}

// tag is s as a tag: lower case, no commas or control characters.
func tag(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, ",", " ")))
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
