package postgres

import (
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// A narrow filter made of meta conditions alone is common (a tenant, a
// document version), and counting the records that pass it, to choose how
// the lanes run, visits up to exactBelow+1 rows. PostgreSQL's statistics
// (ANALYZE, which autovacuum runs) already say how many rows hold each
// common form of meta_forms: when they say clearly more pass than scoring
// one by one suits, the count is skipped. A wrong estimate only changes
// which way the lanes run, never what they find.

// metaStatsFor is how long the statistics read are used before reading
// them again.
const metaStatsFor = time.Minute

// metaStatsSQL reads, for meta_forms, the estimated rows holding each of
// its most common elements.
const metaStatsSQL = `SELECT s.most_common_elems::text::text[],
	(SELECT array_agg(f * c.reltuples * (1 - s.null_frac)) FROM unnest(s.most_common_elem_freqs::float8[]) f)::float8[]
	FROM pg_stats s JOIN pg_namespace n ON n.nspname = s.schemaname
	JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = s.tablename
	WHERE s.schemaname = current_schema() AND s.tablename = 'records' AND s.attname = 'meta_forms'`

// metaStats caches the estimate of rows per meta form.
type metaStats struct {
	mu   sync.Mutex
	at   time.Time
	rows map[string]float64
}

// estimate returns how many records the statistics say pass f's meta
// conditions, when meta is all f narrows by and the statistics know each
// condition's forms; it queues a read of the statistics on b when those
// it holds are old.
func (m *metaStats) estimate(f mneme.Filter, b *pgx.Batch) (float64, bool) {
	if len(f.Meta) == 0 {
		return 0, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Since(m.at) > metaStatsFor {
		m.at = time.Now() // one read at a time
		b.Queue(metaStatsSQL).Query(func(rows pgx.Rows) error { return m.read(rows) })
	}
	noMeta := f
	noMeta.Meta = nil
	if len(m.rows) == 0 || narrow(noMeta) {
		return 0, false
	}
	best := -1.0
	for _, c := range f.Meta {
		var n float64
		for _, form := range c.Forms() {
			n += m.rows[formEscaper.Replace(form)] // a form not among the common ones: few rows
		}
		if best < 0 || n < best {
			best = n
		}
	}
	return best, true
}

// read keeps the statistics a metaStatsSQL query returns.
func (m *metaStats) read(rows pgx.Rows) error {
	out := map[string]float64{}
	err := forRows(rows, func() error {
		var elems []string
		var n []float64
		if err := rows.Scan(&elems, &n); err != nil {
			return err
		}
		for i, e := range elems {
			if i < len(n) {
				out[e] = n[i]
			}
		}
		return nil
	})
	if err == nil {
		m.mu.Lock()
		m.rows = out
		m.mu.Unlock()
	}
	return err
}
