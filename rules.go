package mneme

import (
	"slices"
	"time"
)

// Outcome is what writing one record does to the store.
type Outcome int

const (
	Insert Outcome = iota
	Update
	Skip
)

// ResolveRemember decides how a remembered record in relates to the stored
// record with the same content hash in its project (existing, or nil). It
// stamps in with its id and server times. The same text with the same
// metadata is skipped; with changed metadata it updates the stored record,
// which keeps its id, creation time, links and promotion history, and the
// fields in does not name (see keepAbsent).
func ResolveRemember(existing, in *Record, now time.Time) Outcome {
	if existing == nil {
		in.ID = NewID(now)
		in.CreatedAt, in.UpdatedAt = now, now
		return Insert
	}
	in.keepAbsent(existing)
	in.ID, in.CreatedAt, in.UpdatedAt = existing.ID, existing.CreatedAt, existing.UpdatedAt
	in.Links = unionLinks(existing.Links, in.Links)
	if len(in.Promotions) == 0 { // a write never erases the promotion history
		in.Promotions = existing.Promotions
	}
	if sameContent(existing, in) {
		return Skip
	}
	in.UpdatedAt = now
	return Update
}

// ResolveImport decides how an imported record in relates to the stored
// record with its id (existing, or nil) and to one with its content hash in
// its project (dup). Imported records keep their ids, times, status and links.
func ResolveImport(existing *Record, dup bool, in *Record, now time.Time) Outcome {
	if in.ID == "" {
		in.ID = NewID(now)
	}
	if in.CreatedAt.IsZero() && existing != nil {
		in.CreatedAt = existing.CreatedAt
	}
	if in.CreatedAt.IsZero() {
		in.CreatedAt = now
	}
	if in.UpdatedAt.IsZero() {
		in.UpdatedAt = in.CreatedAt
	}
	switch {
	case existing != nil && sameContent(existing, in) && existing.CreatedAt.Equal(in.CreatedAt) && existing.UpdatedAt.Equal(in.UpdatedAt):
		return Skip
	case existing != nil:
		return Update
	case dup:
		return Skip
	}
	return Insert
}

// Supersede marks old as superseded by in: the old record stays for history,
// hidden from recall; in links to it.
func Supersede(old, in *Record, now time.Time) {
	old.Status = Superseded
	old.UpdatedAt = now
	in.Links = unionLinks(in.Links, []Link{{Type: LinkSupersedes, Target: old.ID}})
}

// Supersedes reports whether a remembered record retires the other active
// records with its key.
func Supersedes(r *Record) bool { return r.Key != "" && r.Status != Superseded }

func unionLinks(a, b []Link) []Link {
	out := slices.Clone(a)
	for _, l := range b {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}
