package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/postgres"
)

// wantMessage checks an error's code and that its message names the
// problem and the fix, without the connection string or the password.
func wantMessage(t *testing.T, err error, code string, dsn string, words ...string) {
	t.Helper()
	msg := mneme.ErrorMessage(err)
	if mneme.ErrorCode(err) != code {
		t.Fatalf("err = %v (%s), want %s", err, mneme.ErrorCode(err), code)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Fatalf("message %q does not say %q", msg, w)
		}
	}
	if (dsn != "" && strings.Contains(msg, dsn)) || strings.Contains(msg, "s3cret-wrong") {
		t.Fatalf("message %q shows the connection string", msg)
	}
}

func TestUnreachableServer(t *testing.T) {
	dsn := "postgres://mneme:s3cret-wrong@127.0.0.1:1/mneme?connect_timeout=2"
	_, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	wantMessage(t, err, mneme.EUNAVAILABLE, dsn, "cannot reach", "127.0.0.1:1", "$MNEME_PG_DSN")
}

// TestSSLRefused: sslmode=require against a server without SSL says so,
// and how to connect without it, rather than "cannot reach … start it".
func TestSSLRefused(t *testing.T) {
	u, err := url.Parse(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("sslmode", "require")
	u.RawQuery = q.Encode()
	_, err = postgres.Open(context.Background(), u.String(), postgres.Options{Schema: pgtest.Schema(t)})
	wantMessage(t, err, mneme.EUNAVAILABLE, u.String(), "refused SSL", "sslmode", "$MNEME_PG_DSN")
	if msg := mneme.ErrorMessage(err); strings.Contains(msg, "cannot reach") || strings.Contains(msg, "start it") {
		t.Fatalf("message %q says the server is down", msg)
	}
}

// TestSchemaNameLimit: a schema name PostgreSQL would cut to 63 bytes is
// refused before connecting; two names that share those bytes would
// otherwise be one home.
func TestSchemaNameLimit(t *testing.T) {
	dsn := "postgres://mneme:s3cret-wrong@127.0.0.1:1/mneme?connect_timeout=2"
	long := strings.Repeat("home_", 12) + "abcd" // 64 bytes
	_, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: long})
	wantMessage(t, err, mneme.EINVALID, dsn, "64 bytes", "limit of 63", "shorter")
	if err := postgres.CheckSchema(long[:63]); err != nil {
		t.Fatalf("63 bytes: %v", err)
	}
	if err := postgres.CheckSchema(strings.Repeat("é", 32)); err == nil { // 64 bytes, 32 characters
		t.Fatal("the limit is in bytes, not characters")
	}
}

// superuser runs statements on the test server as its own user.
func superuser(t *testing.T, dsn, db string, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, withDB(t, dsn, db))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, s := range stmts {
		if _, err := c.Exec(ctx, s); err != nil && !strings.Contains(err.Error(), "already exists") {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func withDB(t *testing.T, dsn, db string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	if db != "" {
		u.Path = "/" + db
	}
	return u.String()
}

func asUser(t *testing.T, dsn, user, password, db string) string {
	u, _ := url.Parse(withDB(t, dsn, db))
	u.User = url.UserPassword(user, password)
	return u.String()
}

// TestWrongPassword needs a user that signs in with a password
// (scripts/pg-cluster sets one up: mneme_pw).
func TestWrongPassword(t *testing.T) {
	dsn := pgtest.DSN(t)
	superuser(t, dsn, "", "DO $$ BEGIN CREATE ROLE mneme_pw LOGIN PASSWORD 'right'; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
	bad := asUser(t, dsn, "mneme_pw", "s3cret-wrong", "")
	_, err := postgres.Open(context.Background(), bad, postgres.Options{DSNEnv: "TEAM_DSN"})
	if err == nil {
		skips.Skip(t, "a scram line for mneme_pw in pg_hba.conf (scripts/pg-cluster writes one)", "the server let mneme_pw in without its password")
	}
	wantMessage(t, err, mneme.EUNAVAILABLE, bad, "refused the user name or password", "$TEAM_DSN")
}

// TestVectorExtensionMissing: a database without pgvector enabled (the
// server has it), and a user who may not create it, gets told who must run
// what.
func TestVectorExtensionMissing(t *testing.T) {
	dsn := pgtest.DSN(t)
	superuser(t, dsn, "", "DO $$ BEGIN CREATE ROLE mneme_novec LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$", "CREATE DATABASE mneme_novec")
	superuser(t, dsn, "mneme_novec", "DROP EXTENSION IF EXISTS vector CASCADE", "REVOKE CREATE ON DATABASE mneme_novec FROM PUBLIC", "GRANT CREATE ON SCHEMA public TO mneme_novec")
	user := asUser(t, dsn, "mneme_novec", "", "mneme_novec")
	_, err := postgres.Open(context.Background(), user, postgres.Options{})
	wantMessage(t, err, mneme.EUNAVAILABLE, user, "pgvector", "CREATE EXTENSION vector")
}

// TestVectorExtensionNotInstalled: a server without pgvector at all (here
// one asked for an extension it lacks) gets told to install it there.
func TestVectorExtensionNotInstalled(t *testing.T) {
	dsn := pgtest.DSN(t)
	defer postgres.SetVectorExtension("vector_not_installed_here")()
	_, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: pgtest.Schema(t)})
	wantMessage(t, err, mneme.EUNAVAILABLE, dsn, "not installed on the PostgreSQL server", "install it there", "CREATE EXTENSION vector")
}

// TestDimensionMismatch: a vector of another dimension is ECONFLICT naming
// both dimensions.
func TestDimensionMismatch(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	ctx := context.Background()
	e32, _ := hash.New(32)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(e32))
	if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "first"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	r := &mneme.Record{ID: "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", Text: "second", ContentHash: mneme.TextHash("second"), Vector: make([]float32, 48)}
	_, err := s.Put(ctx, []*mneme.Record{r}, mneme.ModeImport, r.CreatedAt)
	wantMessage(t, err, mneme.ECONFLICT, "", "48", "32")
}

// TestHealth: every check passes on a fresh store, and the probe leaves
// no row behind.
func TestHealth(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	ctx := context.Background()
	e, _ := hash.New(16)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(e))
	if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "health"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	checks, err := s.Health(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range checks {
		names[c.Name] = true
		if !c.OK {
			t.Fatalf("check %s failed: %s", c.Name, c.Detail)
		}
	}
	for _, n := range []string{"postgres", "schema", "pgvector", "indexes", "write probe", "vector column"} {
		if !names[n] {
			t.Fatalf("no %s check in %v", n, checks)
		}
	}
	var meta int
	if err := s.Pool().QueryRow(ctx, "SELECT count(*) FROM meta WHERE key LIKE 'doctor-probe-%'").Scan(&meta); err != nil || meta != 0 {
		t.Fatalf("probe rows left: %d, %v", meta, err)
	}
}

// TestNewerSchemaRefused: an older binary meeting a newer schema refuses.
func TestNewerSchemaRefused(t *testing.T) {
	schema := pgtest.Schema(t)
	s := pgtest.OpenIn(t, schema)
	if _, err := s.Pool().Exec(context.Background(), "UPDATE schema_version SET version = version + 1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := postgres.Open(context.Background(), pgtest.DSN(t), postgres.Options{Schema: schema})
	wantMessage(t, err, mneme.EINVALID, "", "newer than this mneme", "upgrade mneme")
}
