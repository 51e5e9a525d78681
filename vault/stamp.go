package vault

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/mneme-ai/mneme"
)

// renderVersion names render's output format inside every stamp: change
// it whenever render writes a record differently, so a re-export rewrites
// the files an older mneme left (TestRenderVersion pins the output).
const renderVersion = "vault-render/1"

// stampOf is a digest of everything render reads from r (and the file
// names its links show), so a re-export can tell a record's file is
// current without rendering it: the manifest keeps each file's stamp.
// SHA-256 (first 128 bits), not a fast hash: a writer who could make two
// versions of a record collide could keep a stale file in the vault.
func stampOf(r *mneme.Record, name func(id string) string, buf []byte) (string, []byte) {
	b := appendStr(buf[:0], renderVersion)
	for _, s := range [...]string{r.ID, r.Project, string(r.Type), r.Kind, r.Title, r.Text,
		r.Key, string(r.Status), string(r.Provenance), string(r.Sensitivity),
		r.Speaker, r.SessionID, r.RunID} {
		b = appendStr(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(r.Tags)))
	for _, t := range r.Tags {
		b = appendStr(b, t)
	}
	b = appendTime(b, &r.CreatedAt)
	b = appendTime(b, &r.UpdatedAt)
	b = appendTime(b, r.OccurredAt)
	b = appendTime(b, r.ExpiresAt)
	if s := r.Source; s != nil {
		b = append(b, 1)
		b = appendStr(appendStr(b, s.URI), s.Parent)
		for _, n := range [...]int{s.LineStart, s.LineEnd, s.Chunk} {
			b = binary.AppendVarint(b, int64(n))
		}
	} else {
		b = append(b, 0)
	}
	for _, lt := range linkKeys { // as render lists them: by relation
		b = appendStr(b, lt)
		for _, l := range r.Links {
			if l.Type == lt {
				b = appendStr(append(b, 1), linkName(l.Target, name))
			}
		}
		b = append(b, 0)
	}
	props, meta := splitMeta(r.Meta)
	for _, p := range props {
		b = binary.AppendUvarint(appendStr(b, p.key), uint64(len(p.items)))
		for _, it := range p.items {
			b = appendStr(b, it)
		}
	}
	b = appendStr(append(b, 0), string(meta))
	if len(r.Promotions) > 0 {
		p, _ := json.Marshal(r.Promotions) // plain data: always encodes
		b = appendStr(b, string(p))
	} else {
		b = appendStr(b, "")
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16]), b
}

// appendStr appends s with its length first: no two lists of strings
// give the same bytes.
func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendTime appends t as render sees it: absent and zero alike.
func appendTime(b []byte, t *time.Time) []byte {
	if t == nil || t.IsZero() {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendVarint(b, t.Unix())
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}
