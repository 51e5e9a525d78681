package mneme

import (
	"context"
	"errors"
	"math/rand/v2"
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
	if !in.exactLinks {
		in.Links = unionLinks(existing.Links, in.Links)
	}
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

// errChanged marks a read-modify-write that lost a race to another writer
// (see CheckBase): the Engine reads the record again and retries.
var errChanged = errors.New("the record changed while it was being rewritten")

// CheckBase refuses to write in, a record that was read, changed and is
// being written back (an update, an in-place promotion), when the stored
// record (existing, read in the write's transaction, nil if gone) is no
// longer the version it was read as: another writer changed or forgot it
// meanwhile, and writing in would undo that. Stores call it before
// ResolveImport, having locked existing.
func CheckBase(existing, in *Record) error {
	b := in.base
	if b == nil || existing != nil && existing.UpdatedAt.Equal(b.UpdatedAt) && existing.ContentHash == b.ContentHash && sameContent(existing, b) {
		return nil
	}
	return &Error{Code: ECONFLICT, Message: "record " + in.ID + " was changed by another writer while this write was in progress: try again", Err: errChanged}
}

// CheckImport refuses to write in over existing, the stored record with
// in's id read in the write's transaction (nil if there is none), when the
// caller of ctx may not read existing (Scope.CanRead: an import may only
// update what the caller could update by id), or when existing changed
// since in was read from it (CheckBase). Stores call it before
// ResolveImport.
func CheckImport(ctx context.Context, existing, in *Record) error {
	if sc := ScopeFrom(ctx); existing != nil && !sc.CanRead(existing) {
		return unwritableID(sc, existing.ID)
	}
	return CheckBase(existing, in)
}

// unwritableID refuses an import that carries the id of a record sc may
// not read. Ids are unique, so the write cannot go ahead, but the message
// is the same whatever hides the record (its project or its sensitivity).
func unwritableID(sc Scope, id string) error {
	return Errorf(EFORBIDDEN, "record %s cannot be written by %q: an import updates the record with its id, and this one is not a record %q may read; leave out the id to store it as a new record", id, sc.Name, sc.Name)
}

// rewrite runs a read-modify-write (read, change and write back a record)
// until it does not race another writer: each lost race means another
// writer's change landed, so a few dozen writers at once all get through.
// Pauses of random length spread the retries out; ctx ends them.
func rewrite[T any](ctx context.Context, try func() (T, error)) (T, error) {
	for attempt := 1; ; attempt++ {
		out, err := try()
		if !errors.Is(err, errChanged) || attempt == 32 {
			return out, err
		}
		select {
		case <-ctx.Done():
			return out, err
		case <-time.After(time.Duration(rand.Int64N(int64(attempt) * int64(time.Millisecond)))):
		}
	}
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
