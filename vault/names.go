package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
	"unicode"

	"github.com/mneme-ai/mneme"
)

// File names come from record content only through slug, which keeps
// letters and digits: no separator, no dot, so no path traversal. Projects
// are validated names and types a closed set.

// groupDir is the folder of r's file: project/type, then kind if any.
func groupDir(r *mneme.Record) string {
	d := path.Join(r.Project, string(r.Type))
	if r.Kind != "" {
		d = path.Join(d, slug(r.Kind, 40, "kind"))
	}
	return d
}

// canonicalPath is r's file path when the vault has none for it yet: a
// slug of the title (else the text) and the end of the id, longer when
// taken says a shorter one is in use.
func canonicalPath(r *mneme.Record, taken func(string) bool) string {
	s := r.Title
	if s == "" {
		s = r.Text
	}
	base := slug(s, 48, "note")
	hexID := strings.ReplaceAll(r.ID, "-", "")
	for _, n := range []int{8, 12, len(hexID)} {
		p := path.Join(groupDir(r), base+"-"+hexID[len(hexID)-n:]+".md")
		if !taken(p) || n == len(hexID) {
			return p
		}
	}
	panic("unreachable")
}

// slug is s lowercased, runs of anything but letters and digits turned to
// one '-', at most max runes; def when nothing is left.
func slug(s string, max int, def string) string {
	var b strings.Builder
	n, dash := 0, false
	for _, c := range s {
		if n >= max {
			break
		}
		if unicode.IsLetter(c) || unicode.IsDigit(c) {
			if dash && n > 0 {
				b.WriteByte('-')
				n++
			}
			b.WriteRune(unicode.ToLower(c))
			n++
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return def
	}
	return b.String()
}

// baseName is a vault path's file name without .md: what a wikilink shows.
func baseName(p string) string { return strings.TrimSuffix(path.Base(p), ".md") }

// derivedID is the id of a note that names none (a hand-written file): the
// same path in the same project is the same record on every import.
func derivedID(project, rel string) string {
	h := sha256.Sum256([]byte("mneme-vault\x00" + project + "\x00" + rel))
	h[6] = h[6]&0x0f | 0x80 // version 8: custom
	h[8] = h[8]&0x3f | 0x80 // RFC 4122 variant
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
}
