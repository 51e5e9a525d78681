package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// requiredIndexes are the indexes search and writes rely on.
var requiredIndexes = []string{"records_pkey", "records_id_key", "records_project_hash", "records_project_key",
	"records_session", "records_tags", "postings_pkey", "postings_impact", "postings_rid", "documents_pkey", "embedding_cache_pkey"}

// Health checks the server for `mneme doctor` (the mneme.HealthChecker
// role): the server, the schema version, pgvector, the indexes, a write,
// read and delete probe that leaves nothing behind, and that the vector
// column has the home embedder's dimension.
func (s *Store) Health(ctx context.Context) ([]mneme.HealthCheck, error) {
	var out []mneme.HealthCheck
	add := func(name string, ok bool, detail, fix string) {
		out = append(out, mneme.HealthCheck{Name: name, OK: ok, Detail: detail, Fix: fix})
	}
	var version string
	if err := s.pool.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		add("postgres", false, mneme.ErrorMessage(s.translate(err, "reach the server")), "")
		return out, nil
	}
	add("postgres", true, fmt.Sprintf("%s answers (PostgreSQL %s)", s.Describe(), version), "")
	have, want, err := s.SchemaVersions(ctx)
	switch {
	case err != nil:
		add("schema", false, mneme.ErrorMessage(err), "")
	case have < want:
		add("schema", false, fmt.Sprintf("schema version %d, this mneme needs %d", have, want), "mneme migrate")
	case have > want:
		add("schema", false, fmt.Sprintf("schema version %d is newer than this mneme (%d)", have, want), "upgrade mneme")
	default:
		add("schema", true, fmt.Sprintf("version %d (current)", have), "")
	}
	var vec string
	if err := s.pool.QueryRow(ctx, "SELECT extversion FROM pg_extension WHERE extname = 'vector'").Scan(&vec); err != nil {
		add("pgvector", false, "the vector extension is not enabled in the database", "have a superuser run CREATE EXTENSION vector; in the database")
	} else {
		add("pgvector", true, "version "+vec, "")
	}
	out = append(out, s.checkIndexes(ctx), s.probe(ctx), s.checkDimension(ctx))
	return out, nil
}

// checkIndexes reports missing indexes, the home's HNSW index included.
func (s *Store) checkIndexes(ctx context.Context) mneme.HealthCheck {
	want := append([]string(nil), requiredIndexes...)
	sp, err := s.space(ctx, s.pool)
	if err == nil && sp != nil {
		want = append(want, sp.name+"_hnsw")
	}
	var missing []string
	for _, name := range want {
		var ok bool
		err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = $1
			AND schemaname = coalesce(nullif($2, ''), current_schema()))`, name, s.schema).Scan(&ok)
		if err != nil {
			return mneme.HealthCheck{Name: "indexes", Detail: mneme.ErrorMessage(s.translate(err, "list indexes"))}
		}
		if !ok {
			missing = append(missing, name)
		}
	}
	var started string
	if err := s.pool.QueryRow(ctx, "SELECT value FROM meta WHERE key = 'bulk_load'").Scan(&started); err == nil {
		return mneme.HealthCheck{Name: "indexes", Detail: "a bulk load started " + started + " (mneme migrate-store) did not finish building the search indexes",
			Fix: "run the same mneme migrate-store again"}
	}
	if len(missing) > 0 {
		return mneme.HealthCheck{Name: "indexes", Detail: "missing: " + strings.Join(missing, ", "), Fix: "mneme migrate (a missing HNSW index: mneme reindex)"}
	}
	return mneme.HealthCheck{Name: "indexes", OK: true, Detail: fmt.Sprintf("%d present", len(want))}
}

// probe writes, reads and deletes a row in one committed transaction: the
// user may write, and nothing is left behind.
func (s *Store) probe(ctx context.Context) mneme.HealthCheck {
	b := make([]byte, 8)
	rand.Read(b)
	key := "doctor-probe-" + hex.EncodeToString(b)
	err := s.tx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO meta (key, value) VALUES ($1, 'probe')", key); err != nil {
			return err
		}
		var v string
		if err := tx.QueryRow(ctx, "SELECT value FROM meta WHERE key = $1", key).Scan(&v); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, "DELETE FROM meta WHERE key = $1", key)
		if err == nil && tag.RowsAffected() != 1 {
			err = fmt.Errorf("the probe row was not deleted")
		}
		return err
	})
	if err != nil {
		return mneme.HealthCheck{Name: "write probe", Detail: mneme.ErrorMessage(s.translate(err, "write, read and delete a probe row")),
			Fix: "grant the user INSERT, SELECT, UPDATE and DELETE on the store's tables"}
	}
	var left int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM meta WHERE key = $1", key).Scan(&left); err != nil || left != 0 {
		return mneme.HealthCheck{Name: "write probe", Detail: "the probe row was left behind"}
	}
	return mneme.HealthCheck{Name: "write probe", OK: true, Detail: "wrote, read and deleted a row; none left behind"}
}

// checkDimension compares the vector column with the home's embedder.
func (s *Store) checkDimension(ctx context.Context) mneme.HealthCheck {
	info, ok, err := homeEmbedder(ctx, s.pool)
	if err != nil {
		return mneme.HealthCheck{Name: "vector column", Detail: mneme.ErrorMessage(s.translate(err, "read the home's embedder"))}
	}
	if !ok {
		return mneme.HealthCheck{Name: "vector column", OK: true, Detail: "no vectors yet: the home has no embedder"}
	}
	sp := spaceOf(info)
	var dim int
	err = s.pool.QueryRow(ctx, `SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attname = 'vec'`, sp.table).Scan(&dim)
	if err != nil {
		return mneme.HealthCheck{Name: "vector column", Detail: fmt.Sprintf("the vector table of %s is missing", info.ID()), Fix: "mneme reindex"}
	}
	if dim != info.Dim {
		return mneme.HealthCheck{Name: "vector column", Detail: fmt.Sprintf("the vector column has %d dimensions, the home's embedder %s has %d", dim, info.ID(), info.Dim), Fix: "mneme reindex"}
	}
	return mneme.HealthCheck{Name: "vector column", OK: true, Detail: fmt.Sprintf("vector(%d), as %s", dim, info.ID())}
}
