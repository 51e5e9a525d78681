package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pool is the store's connection pool. A statement that fails because the
// server had already ended its connection (pg_terminate_backend, a restart,
// a proxy's idle timeout) runs once more on a connection checked first,
// instead of failing the request: the server ran nothing of it. pgxpool
// checks a connection idle for over a second itself; this covers the ones
// used again sooner. Every statement outside a transaction, and every
// BEGIN, goes through here.
type pool struct{ *pgxpool.Pool }

// checkedKey marks a context whose connections are pinged when acquired.
type checkedKey struct{}

// checked is ctx for a retry: the pool pings each connection it hands out
// (dropping the dead ones) until one answers or a new one is made.
func checked(ctx context.Context) context.Context { return context.WithValue(ctx, checkedKey{}, true) }

// shouldPing is pgxpool's default (a connection idle over a second), and
// every connection under checked.
func shouldPing(ctx context.Context, p pgxpool.ShouldPingParams) bool {
	return p.IdleDuration > time.Second || ctx.Value(checkedKey{}) != nil
}

// deadConn reports an error that says the statement never ran: the server
// had ended the connection (admin_shutdown, crash_shutdown,
// cannot_connect_now) or nothing reached it.
func deadConn(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || ctx.Value(checkedKey{}) != nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return pgconn.SafeToRetry(err)
}

func (p pool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := p.Pool.Exec(ctx, sql, args...)
	if deadConn(ctx, err) {
		return p.Pool.Exec(checked(ctx), sql, args...)
	}
	return tag, err
}

func (p pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return row{p, ctx, sql, args}
}

type row struct {
	p    pool
	ctx  context.Context
	sql  string
	args []any
}

func (r row) Scan(dest ...any) error {
	err := r.p.Pool.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...)
	if deadConn(r.ctx, err) {
		return r.p.Pool.QueryRow(checked(r.ctx), r.sql, r.args...).Scan(dest...)
	}
	return err
}

// Query reads the first row before it returns: a dead connection shows
// there, before the caller has seen anything.
func (p pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := p.Pool.Query(ctx, sql, args...)
	if err == nil {
		if rows.Next() {
			return &peeked{Rows: rows, first: true}, nil
		}
		if err = rows.Err(); err == nil {
			return rows, nil // no rows: Next stays false
		}
	}
	if deadConn(ctx, err) {
		return p.Pool.Query(checked(ctx), sql, args...)
	}
	return nil, err
}

// peeked is rows whose first row Query already read.
type peeked struct {
	pgx.Rows
	first bool
}

func (r *peeked) Next() bool {
	if r.first {
		r.first = false
		return true
	}
	return r.Rows.Next()
}

func (p pool) Begin(ctx context.Context) (pgx.Tx, error) {
	return p.BeginTx(ctx, pgx.TxOptions{})
}

func (p pool) BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error) {
	tx, err := p.Pool.BeginTx(ctx, opts)
	if deadConn(ctx, err) {
		return p.Pool.BeginTx(checked(ctx), opts)
	}
	return tx, err
}
