// Package postgres is mneme's shared store: PostgreSQL with the pgvector
// extension, for teams and many writers. Search runs inside the server:
// BM25 over postings the store keeps (scored exactly as the embedded
// store's index scores), and nearest vectors through an HNSW index, both
// with the recall filter in SQL. Concurrent writers are made safe by
// transaction-scoped advisory locks on what they dedupe and supersede by.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/mneme-ai/mneme"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure Open.
type Options struct {
	// Schema holds the store's tables ("" means the connection's default,
	// usually public); several homes can share a database in schemas.
	Schema string
	// DSNEnv names the environment variable the DSN came from, for
	// messages (the DSN itself is never shown: it may hold a password).
	DSNEnv string
	// Migrate applies pending migrations; without it, Open applies them
	// only to an empty database and otherwise refuses an older schema.
	Migrate bool
	// MaxConns bounds the connection pool (default 16).
	MaxConns int32
}

// Store is the PostgreSQL implementation of mneme.Store.
type Store struct {
	pool   pool
	opts   Options
	host   string // host:port, for messages
	schema string
	bulk   atomic.Bool // in BulkLoad: writes leave postings to its end
	meta   metaStats   // what the statistics say of meta filters
	// aside holds a token for each search running its vector lane on a
	// second connection (search.go); half the pool at most, so searches
	// holding one connection and waiting for another never take it all.
	aside chan struct{}
}

var (
	_ mneme.Store         = (*Store)(nil)
	_ mneme.HealthChecker = (*Store)(nil)
)

// Open connects to the server named by dsn, checks pgvector and the schema
// version, and applies migrations as opts say.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	if opts.DSNEnv == "" {
		opts.DSNEnv = "MNEME_PG_DSN"
	}
	if err := CheckSchema(opts.Schema); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, mneme.Invalid("the PostgreSQL connection string in $%s is not valid: use postgres://USER:PASSWORD@HOST:PORT/DATABASE", opts.DSNEnv)
	}
	cfg.MaxConns = 16
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	s := &Store{opts: opts, host: fmt.Sprintf("%s:%d", cfg.ConnConfig.Host, cfg.ConnConfig.Port), schema: opts.Schema,
		aside: make(chan struct{}, cfg.MaxConns/2)}
	if s.schema != "" {
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{s.schema}.Sanitize() + ", public"
	}
	cfg.ShouldPing = shouldPing
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		// Binary vectors once the extension exists; before, text works too.
		_ = pgxvec.RegisterTypes(ctx, c)
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second) // for connecting, not for migrating
	defer cancel()
	p, err := pgxpool.NewWithConfig(cctx, cfg)
	if err != nil {
		return nil, s.translate(err, "connect")
	}
	s.pool = pool{p}
	if err := p.Ping(cctx); err != nil {
		p.Close()
		return nil, s.translate(err, "open the database")
	}
	if err := s.setup(ctx); err != nil {
		p.Close()
		return nil, s.translate(err, "open the database")
	}
	return s, nil
}

// MaxSchemaBytes is PostgreSQL's limit on a name (NAMEDATALEN-1): it cuts
// longer names silently, so two schema names that share their first 63
// bytes would be one home.
const MaxSchemaBytes = 63

// CheckSchema refuses a schema name PostgreSQL would cut.
func CheckSchema(schema string) error {
	if len(schema) > MaxSchemaBytes {
		return mneme.Invalid("the schema name is %d bytes, over PostgreSQL's limit of %d (it would cut the name, and names that share their first %d bytes would be one home): choose a shorter one", len(schema), MaxSchemaBytes, MaxSchemaBytes)
	}
	return nil
}

// Describe names the store for people, without credentials.
func (s *Store) Describe() string {
	d := "postgres " + s.host
	if s.schema != "" {
		d += " schema " + s.schema
	}
	return d
}

// Close closes the connection pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// Pool is the store's connection pool, for tests and tools.
func (s *Store) Pool() *pgxpool.Pool { return s.pool.Pool }

// lockMigrate serialises schema changes between processes.
const lockMigrate = 0x6d6e656d65 // "mneme"

// setup checks pgvector, creates the schema if asked for, and brings the
// tables up to date when allowed.
func (s *Store) setup(ctx context.Context) error {
	if err := s.ensureVector(ctx); err != nil {
		return err
	}
	names, err := migrationNames()
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockMigrate); err != nil {
			return err
		}
		if s.schema != "" {
			if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{s.schema}.Sanitize()); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)"); err != nil {
			return err
		}
		version, err := schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		switch {
		case version > len(names):
			return mneme.Errorf(mneme.EINVALID, "the database schema (version %d) is newer than this mneme (version %d): upgrade mneme", version, len(names))
		case version == len(names):
			return nil
		case version > 0 && !s.opts.Migrate:
			return mneme.Errorf(mneme.EUNAVAILABLE, "the database schema is at version %d, this mneme needs version %d: run `mneme migrate` (back up the database first)", version, len(names))
		}
		return applyMigrations(ctx, tx, names, version)
	})
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	return names, err
}

// SchemaVersions returns the schema version of the database and the one
// this binary knows.
func (s *Store) SchemaVersions(ctx context.Context) (have, want int, err error) {
	names, err := migrationNames()
	if err != nil {
		return 0, 0, err
	}
	err = s.tx(ctx, func(tx pgx.Tx) error {
		have, err = schemaVersion(ctx, tx)
		return err
	})
	return have, len(names), s.translate(err, "read the schema version")
}

func schemaVersion(ctx context.Context, tx pgx.Tx) (int, error) {
	var v int
	err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_version").Scan(&v)
	return v, err
}

func applyMigrations(ctx context.Context, tx pgx.Tx, names []string, from int) error {
	for i := from; i < len(names); i++ {
		body, err := migrations.ReadFile(names[i])
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
		if step := afterMigration[names[i]]; step != nil {
			if err := step(ctx, tx); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
		}
	}
	if _, err := tx.Exec(ctx, "DELETE FROM schema_version"); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, "INSERT INTO schema_version (version) VALUES ($1)", len(names))
	return err
}

// vectorExtension is pgvector's name (a variable: tests play a server
// without it).
var vectorExtension = "vector"

// ensureVector creates the pgvector extension if it is missing and can be.
func (s *Store) ensureVector(ctx context.Context) error {
	var have bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = $1)", vectorExtension).Scan(&have); err != nil {
		return err
	}
	if have {
		return nil
	}
	_, err := s.pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS "+pgx.Identifier{vectorExtension}.Sanitize()+" SCHEMA public")
	var pe *pgconn.PgError
	switch {
	case err == nil:
		s.pool.Reset() // new connections register the vector type
		return nil
	case errors.As(err, &pe) && (pe.Code == "58P01" || pe.Code == "0A000" || strings.Contains(pe.Message, "control file")):
		return mneme.Errorf(mneme.EUNAVAILABLE, "the pgvector extension is not installed on the PostgreSQL server at %s: install it there (Debian and Ubuntu: the postgresql-NN-pgvector package; else build it from the pgvector sources), then run `CREATE EXTENSION vector;` in the database as a superuser", s.host)
	case errors.As(err, &pe) && pe.Code == "42501":
		return mneme.Errorf(mneme.EUNAVAILABLE, "the pgvector extension is not enabled in the database, and this user may not enable it: have a superuser run `CREATE EXTENSION vector;` in the database")
	}
	return err
}

// tx runs fn in one transaction, again when the server aborted it for a
// deadlock or a serialisation failure between concurrent writers.
func (s *Store) tx(ctx context.Context, fn func(pgx.Tx) error) error {
	for attempt := 0; ; attempt++ {
		err := pgx.BeginFunc(ctx, s.pool, fn)
		var pe *pgconn.PgError
		if attempt < 10 && errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01") {
			time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
			continue
		}
		return err
	}
}

// translate turns driver errors into mneme errors that name the problem and
// its fix, never the DSN; mneme errors pass through.
func (s *Store) translate(err error, doing string) error {
	var me *mneme.Error
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &me):
		return err
	case errors.Is(err, context.Canceled):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: doing + ": cancelled", Err: err}
	case errors.As(err, &pe) && (pe.Code == "28P01" || pe.Code == "28000"):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: fmt.Sprintf("the PostgreSQL server at %s refused the user name or password: fix the credentials in $%s (or the server's pg_hba.conf)", s.host, s.opts.DSNEnv), Err: err}
	case errors.As(err, &pe) && pe.Code == "3D000":
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: fmt.Sprintf("the database named in $%s does not exist on the PostgreSQL server at %s: create it (createdb NAME) or fix the name", s.opts.DSNEnv, s.host), Err: err}
	case errors.As(err, &pe):
		return &mneme.Error{Code: mneme.EINTERNAL, Message: doing + ": PostgreSQL: " + pe.Message + " (" + pe.Code + ")", Err: err}
	case strings.Contains(err.Error(), "server refused TLS connection"):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: fmt.Sprintf("the PostgreSQL server at %s refused SSL, which $%s asks for (sslmode=require, verify-ca or verify-full): enable SSL on the server, or set sslmode=prefer or disable in $%s if the network to it is trusted", s.host, s.opts.DSNEnv, s.opts.DSNEnv), Err: err}
	case errors.As(err, &ce), errors.Is(err, context.DeadlineExceeded), isNetError(err):
		return &mneme.Error{Code: mneme.EUNAVAILABLE, Message: fmt.Sprintf("cannot reach the PostgreSQL server at %s: start it, or fix the host and port in $%s", s.host, s.opts.DSNEnv), Err: err}
	}
	return &mneme.Error{Code: mneme.EINTERNAL, Message: doing + ": " + scrub(err.Error()), Err: err}
}

func isNetError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host") || strings.Contains(msg, "dial ")
}

// scrub drops what a driver message may say about the connection string.
func scrub(msg string) string {
	if i := strings.Index(msg, "postgres://"); i >= 0 {
		return msg[:i] + "(connection string hidden)"
	}
	if i := strings.Index(msg, "postgresql://"); i >= 0 {
		return msg[:i] + "(connection string hidden)"
	}
	return msg
}

// DropSchema drops the store's schema and everything in it (a store opened
// in a schema of its own: benchmarks, tests). Close the store after.
func (s *Store) DropSchema(ctx context.Context) error {
	if s.schema == "" {
		return mneme.Invalid("the store has no schema of its own to drop")
	}
	_, err := s.pool.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{s.schema}.Sanitize()+" CASCADE")
	return s.translate(err, "drop schema "+s.schema)
}
