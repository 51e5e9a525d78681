package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// salvageBatch is how many rows a repair writes per transaction.
const salvageBatch = 500

// maxProbe is how far past the last readable row a repair looks for more
// when the damage hides where a table ends.
const maxProbe = 10_000

// Salvage copies what can still be read of the database in the data
// directory from into the new data directory to: the records with their
// ids, times, status and links, their vectors, the ingested documents and
// the embedding cache. It never writes to from: it reads a copy of the
// database (made in to, removed at the end). Rows on damaged pages are
// skipped and counted; the derived index snapshots are rebuilt from what
// was saved. to must be new or empty.
func Salvage(ctx context.Context, from, to string) (mneme.SalvageResult, error) {
	res := mneme.SalvageResult{From: from, To: to}
	src := filepath.Join(from, FileName)
	if st, err := os.Stat(src); err != nil || st.Size() == 0 {
		return res, mneme.Errorf(mneme.EUNAVAILABLE, "nothing to repair: the database %s is missing or empty; restore your last export into a new data directory with `mneme import FILE.jsonl --home NEWDIR`", src)
	}
	if err := checkNewHome(from, to); err != nil {
		return res, err
	}
	if err := os.MkdirAll(to, dirMode); err != nil {
		return res, mneme.Invalid("cannot create %s: %v; choose another directory with --to", to, errors.Unwrap(err))
	}
	scratch, err := os.MkdirTemp(to, ".repair-")
	if err != nil {
		return res, mneme.Invalid("cannot write in %s: %v; choose another directory with --to", to, errors.Unwrap(err))
	}
	defer os.RemoveAll(scratch)
	copyPath := filepath.Join(scratch, FileName)
	for _, suffix := range []string{"", "-wal"} { // the WAL holds the latest commits; the shared memory is rebuilt
		if err := copyFile(src+suffix, copyPath+suffix); err != nil && (suffix == "" || !errors.Is(err, fs.ErrNotExist)) {
			return res, mneme.Errorf(mneme.EUNAVAILABLE, "cannot copy %s: %v", src+suffix, err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+copyPath)
	if err != nil {
		return res, mneme.InternalError(err, "open the copy of the database")
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	if err := upToDate(ctx, db); err != nil {
		return res, mneme.Errorf(mneme.EUNAVAILABLE, "the database %s is too damaged to repair (%v): nothing could be saved; restore your last export into a new data directory with `mneme import FILE.jsonl --home NEWDIR`", src, err)
	}
	dst, err := Open(ctx, to)
	if err != nil {
		return res, err
	}
	v := &salvager{ctx: ctx, src: db, dst: dst, res: &res, records: map[int64]savedRecord{}}
	err = v.run()
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = translate(cerr, "close the new database")
	}
	if err != nil {
		return res, &mneme.Error{Code: mneme.ErrorCode(err), Message: mneme.ErrorMessage(err) + "; the new data directory " + to + " is incomplete: remove it and run the repair again", Err: err}
	}
	return res, nil
}

// checkNewHome refuses a destination that is the damaged home or holds
// anything.
func checkNewHome(from, to string) error {
	if a, b := absPath(from), absPath(to); a == b {
		return mneme.Invalid("the new data directory must not be the damaged one (%s): choose another with --to", from)
	} else if strings.HasPrefix(b, a+string(filepath.Separator)) {
		return mneme.Invalid("the new data directory must not be inside the damaged one (%s), which repair leaves as it is: choose another with --to", from)
	}
	if fi, fe := os.Stat(from); fe == nil {
		if ti, te := os.Stat(to); te == nil && os.SameFile(fi, ti) {
			return mneme.Invalid("the new data directory must not be the damaged one (%s): choose another with --to", from)
		}
	}
	entries, err := os.ReadDir(to)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return mneme.Invalid("cannot use %s as the new data directory: %v; choose another with --to", to, errors.Unwrap(err))
	case len(entries) > 0:
		return mneme.Invalid("%s is not empty: repair writes into a new data directory; choose another with --to", to)
	}
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return filepath.Clean(a)
	}
	return filepath.Clean(p)
}

// copyFile copies src to dst (owner-only).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// upToDate reads the copy's schema and brings it to this version's, so
// the salvage reads one layout.
func upToDate(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return err
	}
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	names, _ := fs.Glob(migrations, "migrations/*.sql")
	if version == 0 {
		return errors.New("not a mneme database")
	}
	if version < len(names) {
		return (&Store{db: db}).setup(ctx)
	}
	return nil
}

// savedRecord is what the vectors need of a saved record.
type savedRecord struct {
	id, contentHash string
	secret          bool
}

// salvager copies one damaged database into a new store.
type salvager struct {
	ctx      context.Context
	src      *sql.DB
	dst      *Store
	res      *mneme.SalvageResult
	records  map[int64]savedRecord // by seq in the damaged database
	embedder *mneme.EmbedderInfo   // the home's, if it could be read
}

// fatal is an error that stops the salvage (a write to the new store).
type fatal struct{ error }

func (f fatal) Unwrap() error { return f.error }

func (v *salvager) run() error {
	steps := []func() error{v.meta, v.copyRecords, v.copyVectors, v.copyDocuments, v.copyCache}
	for _, step := range steps {
		if err := step(); err != nil {
			var f fatal
			if errors.As(err, &f) {
				return f.error
			}
			return translate(err, "repair")
		}
	}
	return nil
}

// meta reads the home's embedder and makes it the new store's.
func (v *salvager) meta() error {
	var embedder string
	bad, err := v.scan("meta", "key, value", func(sc scanner) (int64, error) {
		var rowid int64
		var key, value string
		if err := sc.Scan(&rowid, &key, &value); err != nil {
			return rowid, err
		}
		if key == "embedder" {
			embedder = value
		}
		return rowid, nil
	})
	v.res.UnreadableRows += bad
	if err != nil || embedder == "" {
		return err
	}
	var info mneme.EmbedderInfo
	if json.Unmarshal([]byte(embedder), &info) != nil || info.Dim <= 0 {
		v.res.UnreadableRows++
		return nil
	}
	if err := v.dst.SetHomeEmbedder(v.ctx, info); err != nil {
		return fatal{err}
	}
	v.embedder = &info
	return nil
}

// copyRecords saves every readable record, and counts the ones the
// table's indexes know of that could not be read.
func (v *salvager) copyRecords() error {
	known, complete := v.knownSeqs()
	var batch []*mneme.Record
	var seqs []int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := v.putRecords(batch, seqs)
		batch, seqs = batch[:0], seqs[:0]
		return err
	}
	var probed []int64
	_, err := v.scanRows("records r", "r.seq, "+columns, func(sc scanner) (int64, error) {
		var seq int64
		r, err := scanRecordWith(sc, &seq)
		if err != nil {
			return seq, err
		}
		batch, seqs = append(batch, r), append(seqs, seq)
		if len(batch) >= salvageBatch {
			if err := flush(); err != nil {
				return seq, fatal{err}
			}
		}
		return seq, nil
	}, &probed)
	if err == nil {
		err = flush()
	}
	if err != nil {
		return err
	}
	for seq := range known {
		if _, ok := v.records[seq]; !ok {
			v.res.UnreadableRecords++
		}
	}
	if !complete { // the indexes are damaged too: count what the scan could not read
		for _, seq := range probed {
			if !known[seq] {
				v.res.UnreadableRecords++
			}
		}
	}
	return nil
}

// knownSeqs lists the records the table's indexes know of, and whether
// one index could be read in full.
func (v *salvager) knownSeqs() (map[int64]bool, bool) {
	known := map[int64]bool{}
	complete := false
	for _, index := range []string{"records_created", "records_event"} {
		rows, err := v.src.QueryContext(v.ctx, "SELECT seq FROM records INDEXED BY "+index)
		if err != nil {
			continue
		}
		for rows.Next() {
			var seq int64
			if rows.Scan(&seq) == nil {
				known[seq] = true
			}
		}
		if rows.Err() == nil {
			complete = true
		}
		rows.Close()
	}
	return known, complete
}

// putRecords writes a batch as an import (ids, times, status and links
// kept), record by record if the batch fails, so one bad record does not
// lose the others.
func (v *salvager) putRecords(batch []*mneme.Record, seqs []int64) error {
	now := time.Now().UTC()
	saved := func(r *mneme.Record, seq int64) {
		v.records[seq] = savedRecord{id: r.ID, contentHash: r.ContentHash, secret: r.Sensitivity == mneme.Secret}
		v.res.Records++
	}
	if _, err := v.dst.Put(v.ctx, batch, mneme.ModeImport, now); err == nil {
		for i, r := range batch {
			saved(r, seqs[i])
		}
		return nil
	} else if v.ctx.Err() != nil {
		return err
	}
	for i, r := range batch {
		if _, err := v.dst.Put(v.ctx, []*mneme.Record{r}, mneme.ModeImport, now); err != nil {
			if v.ctx.Err() != nil {
				return err
			}
			continue // counted as unreadable: the indexes know it, it was not saved
		}
		saved(r, seqs[i])
	}
	return nil
}

// copyVectors saves the readable vectors of saved records, when they come
// from the home's embedder.
func (v *salvager) copyVectors() error {
	var batch []*mneme.Record
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := v.dst.PutVectors(v.ctx, batch); err != nil {
			return fatal{err}
		}
		v.res.Vectors += len(batch)
		batch = batch[:0]
		return nil
	}
	info := v.embedder
	bad, err := v.scan("vectors", "seq, embedder, version, dim, vec", func(sc scanner) (int64, error) {
		var rowid, seq int64
		var embedder, version string
		var dim int
		var blob []byte
		if err := sc.Scan(&rowid, &seq, &embedder, &version, &dim, &blob); err != nil {
			return rowid, err
		}
		rec, ok := v.records[seq]
		if !ok || rec.secret || info == nil || embedder != info.ID() || version != info.Version || dim != info.Dim {
			return rowid, nil
		}
		if len(blob) != 4*dim {
			return rowid, errors.New("vector of the wrong size")
		}
		batch = append(batch, &mneme.Record{ID: rec.id, ContentHash: rec.contentHash, Vector: decodeVector(blob)})
		if len(batch) >= salvageBatch {
			if err := flush(); err != nil {
				return rowid, err
			}
		}
		return rowid, nil
	})
	v.res.UnreadableRows += bad
	if err == nil {
		err = flush()
	}
	if err == nil && info != nil {
		for _, rec := range v.records {
			if !rec.secret {
				v.res.Unembedded++
			}
		}
		v.res.Unembedded -= v.res.Vectors
	}
	return err
}

// copyDocuments saves the readable documents as they were: one whose
// chunks were not all saved counts as changed, so ingesting its file
// again brings the missing chunks back.
func (v *salvager) copyDocuments() error {
	type doc struct {
		id, project, uri, hash string
		chunks                 int
		updated                int64
	}
	var batch []doc
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := v.dst.tx(v.ctx, func(tx *sql.Tx) error {
			for _, d := range batch {
				if _, err := tx.ExecContext(v.ctx, `INSERT INTO documents (id, project, uri, hash, chunks, updated_at) VALUES (?,?,?,?,?,?)
					ON CONFLICT DO NOTHING`, d.id, d.project, d.uri, d.hash, d.chunks, d.updated); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fatal{translate(err, "write documents")}
		}
		v.res.Documents += len(batch)
		batch = batch[:0]
		return nil
	}
	bad, err := v.scan("documents", "id, project, uri, hash, chunks, updated_at", func(sc scanner) (int64, error) {
		var rowid int64
		var d doc
		if err := sc.Scan(&rowid, &d.id, &d.project, &d.uri, &d.hash, &d.chunks, &d.updated); err != nil {
			return rowid, err
		}
		batch = append(batch, d)
		if len(batch) >= salvageBatch {
			if err := flush(); err != nil {
				return rowid, err
			}
		}
		return rowid, nil
	})
	v.res.UnreadableRows += bad
	if err == nil {
		err = flush()
	}
	return err
}

// copyCache saves the readable embedding cache.
func (v *salvager) copyCache() error {
	type entry struct {
		embedder, version, hash string
		vec                     []byte
	}
	var batch []entry
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := v.dst.tx(v.ctx, func(tx *sql.Tx) error {
			for _, e := range batch {
				if _, err := tx.ExecContext(v.ctx, `INSERT INTO embedding_cache (embedder, version, text_hash, vec) VALUES (?, ?, ?, ?)
					ON CONFLICT DO NOTHING`, e.embedder, e.version, e.hash, e.vec); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fatal{translate(err, "write the embedding cache")}
		}
		v.res.Cached += len(batch)
		batch = batch[:0]
		return nil
	}
	bad, err := v.scan("embedding_cache", "embedder, version, text_hash, vec", func(sc scanner) (int64, error) {
		var rowid int64
		var e entry
		if err := sc.Scan(&rowid, &e.embedder, &e.version, &e.hash, &e.vec); err != nil {
			return rowid, err
		}
		batch = append(batch, e)
		if len(batch) >= salvageBatch {
			if err := flush(); err != nil {
				return rowid, err
			}
		}
		return rowid, nil
	})
	v.res.UnreadableRows += bad
	if err == nil {
		err = flush()
	}
	return err
}

// scan reads the readable rows of table (columns cols, after its rowid)
// and returns how many rowids could not be read.
func (v *salvager) scan(table, cols string, row func(scanner) (int64, error)) (int, error) {
	var bad []int64
	_, err := v.scanRows(table, "rowid, "+cols, row, &bad)
	return len(bad), err
}

// scanRows calls row for every readable row of table in rowid order (cols
// start with the rowid; row scans them and returns it). Where a damaged
// page stops the scan, it steps one rowid at a time, appending those it
// cannot read to bad, until the scan can go on. It stops at the table's
// last rowid, or maxProbe past the last readable one when the damage hides
// the end. Only a fatal error from row (or the context) stops it.
func (v *salvager) scanRows(table, cols string, row func(scanner) (int64, error), bad *[]int64) (int, error) {
	rowid := "rowid"
	if table == "records r" {
		rowid = "r.seq"
	}
	hi := int64(-1)
	if err := v.src.QueryRowContext(v.ctx, "SELECT coalesce(max("+rowid+"), 0) FROM "+table).Scan(&hi); err != nil {
		hi = -1
	}
	next := "SELECT " + cols + " FROM " + table + " WHERE " + rowid + " > ? ORDER BY " + rowid + " LIMIT ?"
	at := "SELECT " + cols + " FROM " + table + " WHERE " + rowid + " = ?"
	cur, read := int64(0), 0
	for {
		if err := v.ctx.Err(); err != nil {
			return read, err
		}
		n, last, err := v.rows(next, row, cur, salvageBatch)
		read += n
		cur = max(cur, last)
		var f fatal
		switch {
		case errors.As(err, &f):
			return read, err
		case err == nil && n < salvageBatch:
			return read, nil
		case err == nil:
			continue
		}
		// A damaged page: step over it one rowid at a time. Unreadable
		// rowids count once a readable row (or the known end) follows
		// them: past the last readable row of a table whose end the
		// damage hides, whether rows were there is unknown.
		limit := hi
		if limit < 0 {
			limit = cur + maxProbe
		}
		var pending []int64
		for {
			if err := v.ctx.Err(); err != nil {
				return read, err
			}
			cur++
			if cur > limit {
				if hi >= 0 {
					*bad = append(*bad, pending...)
				}
				return read, nil
			}
			n, _, err := v.rows(at, row, cur, -1)
			if errors.As(err, &f) {
				return read, err
			}
			if err != nil {
				pending = append(pending, cur)
				continue
			}
			read += n
			if n > 0 || hi >= 0 {
				*bad = append(*bad, pending...)
				break // readable again: scan on from here
			}
		}
	}
}

// rows runs query (with args from and, if limit >= 0, limit) and calls row
// for each result. It returns how many rows row accepted, the last rowid
// it saw, and the error that stopped it.
func (v *salvager) rows(query string, row func(scanner) (int64, error), from int64, limit int) (int, int64, error) {
	args := []any{from}
	if limit >= 0 {
		args = append(args, limit)
	}
	rows, err := v.src.QueryContext(v.ctx, query, args...)
	if err != nil {
		return 0, from, err
	}
	defer rows.Close()
	n, last := 0, from
	for rows.Next() {
		id, err := row(rows)
		if err != nil {
			return n, last, err
		}
		n, last = n+1, id
	}
	return n, last, rows.Err()
}

// scanRecordWith scans a record after a leading column into lead.
func scanRecordWith(sc scanner, lead *int64) (*mneme.Record, error) {
	return scanRecord(leadScanner{sc, lead})
}

type leadScanner struct {
	sc   scanner
	lead *int64
}

func (l leadScanner) Scan(dest ...any) error {
	return l.sc.Scan(append([]any{l.lead}, dest...)...)
}
