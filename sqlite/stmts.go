package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// stmts holds statements a store runs on every recall, prepared once:
// database/sql keeps each prepared on the connections that ran it.
type stmts struct {
	mu sync.Mutex
	by map[string]*sql.Stmt
}

func (st *stmts) get(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.by[query]; s != nil {
		return s, nil
	}
	s, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if st.by == nil {
		st.by = map[string]*sql.Stmt{}
	}
	st.by[query] = s
	return s, nil
}

func (st *stmts) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, s := range st.by {
		s.Close()
	}
	st.by = nil
}
