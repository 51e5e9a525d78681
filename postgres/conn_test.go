package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/internal/pgtest"
	"github.com/mneme-ai/mneme/postgres"
)

// terminate ends the server side of every idle connection in s's pool, as
// an administrator, a restart or a proxy's idle timeout does.
func terminate(t *testing.T, s *postgres.Store) int {
	t.Helper()
	ctx := context.Background()
	var held []*pgxpool.Conn // four connections at least, so a retry meets dead ones too
	for range 4 {
		c, err := s.Pool().Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	for _, c := range held {
		c.Release()
	}
	var pids []uint32
	for _, c := range s.Pool().AcquireAllIdle(ctx) {
		pids = append(pids, c.Conn().PgConn().PID())
		c.Release()
	}
	admin, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	for _, pid := range pids {
		// false: ended already (a connection the pool has not yet found dead).
		if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend($1, 5000)", int64(pid)); err != nil {
			t.Fatalf("terminate %d: %v", pid, err)
		}
	}
	return len(pids)
}

// TestTerminatedConnections: after the server ended the pool's
// connections, the next calls run on fresh ones instead of failing, both
// at once and after the connections sat idle.
func TestTerminatedConnections(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	ctx := context.Background()
	em, _ := hash.New(16)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	res, err := eng.Remember(ctx, []*mneme.Record{{Text: "the pool survives a restart"}}, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, idle := range []time.Duration{0, 1100 * time.Millisecond} {
		if n := terminate(t, s); n == 0 {
			t.Fatal("no idle connection to terminate")
		}
		time.Sleep(idle)
		if _, err := eng.Get(ctx, res.ID, mneme.Internal); err != nil {
			t.Fatalf("get after %v idle: %v", idle, err)
		}
		terminate(t, s)
		time.Sleep(idle)
		if _, err := eng.Stats(ctx); err != nil {
			t.Fatalf("stats after %v idle: %v", idle, err)
		}
		terminate(t, s)
		time.Sleep(idle)
		if _, err := eng.Recall(ctx, mneme.Query{Text: "pool restart", K: 5}); err != nil {
			t.Fatalf("recall after %v idle: %v", idle, err)
		}
		terminate(t, s)
		time.Sleep(idle)
		if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "written after a restart " + idle.String()}}, mneme.WriteOptions{}); err != nil {
			t.Fatalf("write after %v idle: %v", idle, err)
		}
	}
}
