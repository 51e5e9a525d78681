// Package pgtest gives tests a fresh PostgreSQL store on the server named
// by MNEME_TEST_PG_DSN (scripts/pg-cluster starts one): each store in a
// schema of its own, dropped when the test ends. Without the variable the
// tests skip.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/internal/skips"
	"github.com/mneme-ai/mneme/postgres"
)

// EnvDSN names the variable holding the test server's DSN.
const EnvDSN = "MNEME_TEST_PG_DSN"

// DSN returns the test server's DSN, or skips t.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		skips.Skip(t, EnvDSN+"=DSN (scripts/pg-cluster start DIR prints one)", "no PostgreSQL server")
	}
	return dsn
}

// Schema returns a new schema name, dropped (with everything in it) when
// t ends.
func Schema(t testing.TB) string {
	t.Helper()
	dsn := DSN(t)
	b := make([]byte, 6)
	rand.Read(b)
	name := "mneme_test_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx := context.Background()
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Logf("drop schema %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			t.Logf("drop schema %s: %v", name, err)
		}
	})
	return name
}

// Open opens a store in a fresh schema; the caller closes it.
func Open(t testing.TB) *postgres.Store {
	t.Helper()
	return OpenIn(t, Schema(t))
}

// OpenIn opens a store in the given schema; the caller closes it.
func OpenIn(t testing.TB, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), DSN(t), postgres.Options{Schema: schema, DSNEnv: EnvDSN})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
