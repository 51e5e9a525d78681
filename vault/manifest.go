package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
)

// ManifestSchema names the manifest's format.
const ManifestSchema = "mneme.vault.manifest/v1"

// Manifest is manifest.json: what the vault holds, and the sha256 of every
// file, so a reader can check the vault and mneme can tell a file edited
// since the export from one it wrote.
type Manifest struct {
	Schema string         `json:"schema"`
	Counts Counts         `json:"counts"`
	Files  []ManifestFile `json:"files"`

	raw []byte // as read (readManifest), to tell whether a new one differs
}

// Counts are the vault's records by project, type and kind.
type Counts struct {
	Records  int            `json:"records"`
	Projects map[string]int `json:"projects"`
	Types    map[string]int `json:"types"`
	Kinds    map[string]int `json:"kinds"`
}

// ManifestFile is one file of the vault. Missing marks a file deleted from
// the vault whose record was not forgotten yet (vault import without
// --sync): a later import --sync forgets it.
//
// Stamp is a digest of what the file was rendered from (see stampOf): a
// re-export need not render a record whose stamp it already has.
type ManifestFile struct {
	Path    string `json:"path"`
	ID      string `json:"id"`
	SHA256  string `json:"sha256"`
	Stamp   string `json:"stamp,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// line is f as one JSON object: as json.Marshal writes it, without its
// reflection where no character needs escaping (10,000 files a manifest).
func (f ManifestFile) line() []byte {
	if !plainJSON(f.Path) || !plainJSON(f.ID) || !plainJSON(f.SHA256) || !plainJSON(f.Stamp) {
		line, _ := json.Marshal(f) // plain data: always encodes
		return line
	}
	b := make([]byte, 0, 64+len(f.Path)+len(f.ID)+len(f.SHA256)+len(f.Stamp))
	b = append(append(append(b, `{"path":"`...), f.Path...), `","id":"`...)
	b = append(append(append(b, f.ID...), `","sha256":"`...), f.SHA256...)
	if f.Stamp != "" {
		b = append(append(b, `","stamp":"`...), f.Stamp...)
	}
	if f.Missing {
		return append(b, `","missing":true}`...)
	}
	return append(b, `"}`...)
}

// plainJSON: s is written in JSON as it is (encoding/json escapes quotes,
// backslashes, control characters, <, > and &, and checks UTF-8).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func newManifest() *Manifest {
	return &Manifest{Schema: ManifestSchema, Counts: Counts{Projects: map[string]int{}, Types: map[string]int{}, Kinds: map[string]int{}}}
}

// addFile counts r, whose file is f.
func (m *Manifest) addFile(r *mneme.Record, f ManifestFile) {
	m.Counts.Records++
	m.Counts.Projects[r.Project]++
	m.Counts.Types[string(r.Type)]++
	if r.Kind != "" {
		m.Counts.Kinds[r.Kind]++
	}
	m.Files = append(m.Files, f)
}

// encode is the manifest as written: indented, one file per line (a diff
// of two manifests shows the files that changed).
func (m *Manifest) encode() []byte {
	slices.SortFunc(m.Files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	head, _ := json.MarshalIndent(struct {
		Schema string `json:"schema"`
		Counts Counts `json:"counts"`
	}{m.Schema, m.Counts}, "", "  ") // plain data: always encodes
	var b bytes.Buffer
	b.Grow(len(head) + 160*len(m.Files))
	b.Write(head[:len(head)-2]) // without the closing "\n}"
	b.WriteString(",\n  \"files\": [")
	for i, f := range m.Files {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(f.line())
	}
	if len(m.Files) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

// readManifest is the vault's manifest, or an empty one when there is none
// or it cannot be read: only paths that stay inside the vault are kept.
func readManifest(root *os.Root) *Manifest {
	m := newManifest()
	data, err := root.ReadFile(ManifestName)
	m.raw = data
	if err != nil || len(data) > 64<<20 {
		return m
	}
	files, ok := parseFiles(data)
	if !ok {
		var got Manifest
		if json.Unmarshal(data, &got) != nil {
			return m
		}
		files = got.Files
	}
	for _, f := range files {
		if path.Clean(f.Path) == f.Path && strings.HasSuffix(f.Path, ".md") && mneme.ValidID(f.ID) && localPath(f.Path) {
			m.Files = append(m.Files, f)
		}
	}
	return m
}

// trust says which files a re-export need not read: those the manifest
// lists that were last changed before it was written (nil when there is
// no manifest).
func (m *Manifest) trust(root *os.Root) func(*vfile, fs.FileInfo) bool {
	st, err := root.Stat(ManifestName)
	if err != nil || len(m.Files) == 0 {
		return nil
	}
	listed := make(map[string]ManifestFile, len(m.Files))
	for _, f := range m.Files {
		if !f.Missing {
			listed[f.Path] = f
		}
	}
	at := st.ModTime()
	return func(vf *vfile, info fs.FileInfo) bool {
		f, ok := listed[vf.rel]
		if !ok || !changedAt(info).Before(at) {
			return false
		}
		vf.trusted, vf.sha, vf.id, vf.stamp = true, f.SHA256, f.ID, f.Stamp
		return true
	}
}

func localPath(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !slices.Contains(strings.Split(p, "/"), "..")
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// parseFiles reads the files of a manifest as encode writes it, one plain
// line each, without encoding/json's reflection (10,000 lines a vault);
// ok is false for anything else (escapes, another layout), which
// readManifest leaves to encoding/json.
func parseFiles(data []byte) (files []ManifestFile, ok bool) {
	const open, end = ",\n  \"files\": [", "]\n}\n"
	s := string(data)
	at := strings.Index(s, open)
	if at < 0 || !strings.HasSuffix(s, end) || !plainHead(s[:at]) {
		return nil, false
	}
	body := strings.TrimSuffix(s[at+len(open):], end)
	if body == "" {
		return []ManifestFile{}, true
	}
	body, ok = strings.CutSuffix(body, "\n  ")
	if !ok {
		return nil, false
	}
	files = make([]ManifestFile, 0, strings.Count(body, "\n"))
	for i, line := range strings.Split(body, ",\n    ") {
		if i == 0 {
			if line, ok = strings.CutPrefix(line, "\n    "); !ok {
				return nil, false
			}
		}
		f, ok := parseLine(line)
		if !ok {
			return nil, false
		}
		files = append(files, f)
	}
	return files, true
}

// plainHead: head, the manifest up to its files, is an object with at
// least one member (so head + `,"files":[…]}` is valid JSON) and no member
// encoding/json would read into Files.
func plainHead(head string) bool {
	if strings.HasSuffix(strings.TrimSpace(head), "{") {
		return false
	}
	d := json.NewDecoder(strings.NewReader(head + "}"))
	d.DisallowUnknownFields()
	var h struct {
		Schema string `json:"schema"`
		Counts Counts `json:"counts"`
	}
	if d.Decode(&h) != nil {
		return false
	}
	_, err := d.Token()
	return err == io.EOF // nothing after the object
}

// parseLine reads one line as ManifestFile.line writes it without
// escapes.
func parseLine(line string) (f ManifestFile, ok bool) {
	field := func(key string) (string, bool) {
		rest, ok := strings.CutPrefix(line, key)
		if !ok {
			return "", false
		}
		v, after, ok := strings.Cut(rest, `"`)
		line = after
		return v, ok && plainJSON(v)
	}
	var ok1, ok2, ok3 bool
	f.Path, ok1 = field(`{"path":"`)
	f.ID, ok2 = field(`,"id":"`)
	f.SHA256, ok3 = field(`,"sha256":"`)
	if !ok1 || !ok2 || !ok3 {
		return f, false
	}
	if strings.HasPrefix(line, `,"stamp":"`) {
		if f.Stamp, ok = field(`,"stamp":"`); !ok {
			return f, false
		}
	}
	switch line {
	case "}":
		return f, true
	case `,"missing":true}`:
		f.Missing = true
		return f, true
	}
	return f, false
}
