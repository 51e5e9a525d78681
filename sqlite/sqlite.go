// Package sqlite is mneme's embedded store: one SQLite file (WAL mode) in
// the data directory, through the pure-Go modernc.org/sqlite driver.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mneme-ai/mneme"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// FileName is the database file inside the data directory.
const FileName = "mneme.db"

// MarkerFile, beside the database, records that the directory holds a
// mneme database, and which (its id): it outlives a database file that is
// deleted or truncated, so a lost database is reported instead of silently
// replaced by an empty one.
const MarkerFile = "mneme.id"

// Every file mneme writes in the data directory is its owner's alone: the
// database holds secret records in clear.
const (
	fileMode = 0o600
	dirMode  = 0o700
)

// busyTimeout is how long a writer waits for another process's transaction.
const busyTimeout = 30 * time.Second

// Store is the SQLite implementation of mneme.Store.
type Store struct {
	db    *sql.DB
	home  string
	dbID  string // tells derived files which database they were built from
	lex   lexical
	vec   vectorLane
	stmts stmts
	wrote atomic.Bool // a write committed: Close may refresh the index snapshot
	leave atomic.Bool // Close leaves the snapshots as they are (LeaveIndexes)
	opts  Options
	// readOnly: opened by OpenForReading on a full disk; nothing is
	// written, not even an index snapshot.
	readOnly bool
}

var _ mneme.Store = (*Store)(nil)

// Open opens (creating if needed) the store in the data directory home and
// brings its schema up to date.
func Open(ctx context.Context, home string) (*Store, error) {
	return OpenWith(ctx, home, Options{})
}

// Options change how OpenWith treats the home.
type Options struct {
	// DeferMigration leaves the schema of a home of more than
	// deferAbove records as it is when it is behind: opening fails with
	// ErrMigrationDeferred. For a process on a host's clock (a hook): a
	// migration of a large home can take seconds.
	DeferMigration bool
}

// deferAbove is the size of home whose migration DeferMigration defers
// (a migration that rewrites an index over every record takes about
// 0.2 s at this size).
var deferAbove int64 = 20_000

// ErrMigrationDeferred is why OpenWith with DeferMigration did not open a
// home whose schema is behind.
var ErrMigrationDeferred = &mneme.Error{Code: mneme.EUNAVAILABLE, Message: "the database schema is behind this mneme and this process does not migrate it: `mneme migrate` (or any other command) does"}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, home string, opts Options) (*Store, error) {
	if err := os.MkdirAll(home, dirMode); err != nil {
		return nil, mneme.Invalid("cannot create the data directory %s: %v; choose another with --home or MNEME_HOME", home, errors.Unwrap(err))
	}
	if err := prepareFile(home); err != nil {
		return nil, err
	}
	return open(ctx, home, false, false, opts)
}

// OpenForReading opens the store in home for a caller that only reads: a
// directory that holds no mneme database is an error (nothing is created
// there), and opening writes nothing when the schema is current, so reads
// work on a full disk.
func OpenForReading(ctx context.Context, home string) (*Store, error) {
	if err := requireHome(home); err != nil {
		return nil, err
	}
	s, err := open(ctx, home, true, false, Options{})
	if isFull(err) {
		// The shared-memory index of the WAL cannot grow: read through a
		// private one instead, writing nothing.
		s, err = open(ctx, home, true, true, Options{})
	}
	return s, err
}

// open opens the database file in home and brings its schema up to date;
// reading tolerates a marker it cannot write. full opens it for reading on
// a full disk: one connection in exclusive locking mode, which keeps the
// WAL's index in its own memory (no shared-memory file to grow). Each
// connection caches 16 MiB of pages (SQLite's default is 2 MiB): a
// session's timeline of 10,000 rows is read again from the OS otherwise.
func open(ctx context.Context, home string, reading, full bool, opts Options) (*Store, error) {
	dsn := "file:" + filepath.Join(home, FileName) +
		fmt.Sprintf("?_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)&_txlock=immediate", busyTimeout.Milliseconds())
	if full {
		dsn += "&_pragma=locking_mode(EXCLUSIVE)"
	} else {
		// Not on a full disk: cache_size reads the schema, which the driver
		// may do before locking_mode, mapping the WAL index it cannot grow.
		dsn += "&_pragma=cache_size(-16384)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, mneme.InternalError(err, "open database")
	}
	s := &Store{db: db, home: home, readOnly: full, opts: opts}
	if full {
		db.SetMaxOpenConns(1)
	}
	err = retryBusy(ctx, func() error { return s.setup(ctx) })
	if err == nil {
		err = db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'db_id'").Scan(&s.dbID)
	}
	if err == nil {
		if err = writeMarker(home, s.dbID); reading {
			err = nil // the marker is written again by the next write
		}
	}
	if err != nil {
		db.Close()
		if reading && !full && isFull(err) {
			return nil, err // OpenForReading tries again without writing
		}
		return nil, translate(err, "open the database in "+home)
	}
	if !reading {
		sweepTemps(home) // what a killed writer left, however few writes follow
	}
	return s, nil
}

var _ mneme.HealthChecker = (*Store)(nil)

// Describe names the store for people: "sqlite PATH".
func (s *Store) Describe() string { return "sqlite " + filepath.Join(s.home, FileName) }

// now is the clock of store-side timestamps.
func (s *Store) now() time.Time { return time.Now().UTC() }

// Close closes the database. A process that wrote many records leaves a
// fresh index snapshot behind, so the next reader starts fast, unless it
// was asked to leave them (LeaveIndexes).
func (s *Store) Close() error {
	if s.wrote.Load() && !s.leave.Load() && s.snapshotLag() >= saveEvery {
		if _, err := s.indexes(context.Background(), true); err != nil {
			slog.Warn("refresh the indexes", "err", err)
		}
	}
	s.stmts.close()
	return s.db.Close()
}

// setup switches to WAL (once per file) and applies pending migrations, each
// in its own immediate transaction, so concurrent first starts are safe.
// A current database is only read, so that opening works on a full disk.
func (s *Store) setup(ctx context.Context) error {
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		if _, err := s.db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
			return err
		}
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var current int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current == len(names) {
		return nil
	}
	if current > 0 && s.opts.DeferMigration {
		var n int64
		if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM records").Scan(&n); err != nil {
			return err
		}
		if n > deferAbove {
			return ErrMigrationDeferred
		}
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var version int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return err
		}
		if version > len(names) {
			return mneme.Errorf(mneme.EINVALID, "the database schema (version %d) is newer than this mneme (version %d): upgrade mneme", version, len(names))
		}
		for i := version; i < len(names); i++ {
			body, err := migrations.ReadFile(names[i])
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(names)))
		return err
	})
}

// tx runs fn in one immediate (write-locking) transaction.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	return retryBusy(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		s.wrote.Store(true)
		return nil
	})
}

// write runs fn with a writer in one transaction, and finishes what the
// writer deferred before it commits.
func (s *Store) write(ctx context.Context, now time.Time, fn func(*writer) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		w := newWriter(ctx, tx, now)
		w.deferred = true
		if !s.readOnly { // one connection: preparing on another would wait for this one
			w.shared = func(query string) (*sql.Stmt, error) { return s.stmts.again(ctx, s.db, query) }
		}
		err := fn(w)
		if w.err != nil { // the cause of what failed after it
			return w.err
		}
		if err != nil {
			return err
		}
		return w.finish()
	})
}

// retryBusy repeats fn while SQLite reports the database busy or locked, so
// concurrent processes wait their turn instead of failing.
func retryBusy(ctx context.Context, fn func() error) error {
	deadline := time.Now().Add(busyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(wait*2, 200*time.Millisecond) {
		err := fn()
		if !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// isFull reports a write that failed for want of disk space (the
// shared-memory index of the WAL that cannot grow, too).
func isFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_FULL || se.Code() == sqlite3.SQLITE_IOERR_SHMSIZE
	}
	return errors.Is(err, syscall.ENOSPC)
}

// isCorrupt reports a damaged database file.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_CORRUPT || code == sqlite3.SQLITE_NOTADB
	}
	return false
}

func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return err != nil && strings.Contains(err.Error(), "database is locked")
}

// translate turns driver errors into mneme errors; mneme errors pass through.
func translate(err error, doing string) error {
	var me *mneme.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &me):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: doing + ": " + err.Error(), Err: err}
	case isBusy(err):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: doing + ": the database stayed busy for " + busyTimeout.String() + "; another process holds a long write, try again", Err: err}
	case isFull(err):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: doing + ": the disk is full (" + err.Error() + "): free some space; reading still works", Err: err}
	case isCorrupt(err):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: doing + ": the database file is damaged (" + err.Error() + "): " + damagedFix, Err: err}
	}
	return mneme.InternalError(err, doing)
}
