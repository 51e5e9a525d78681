package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
)

func init() {
	commands["migrate"] = command{usage: "migrate", summary: "bring the store's schema up to date (the shared postgres store needs it after an upgrade)", run: runMigrate}
	commands["migrate-store"] = command{usage: "migrate-store --from DSN --to DSN", summary: "copy every memory, vector and document from one store to another (sqlite:DIR, postgres); resumable", run: runMigrateStore}
}

// schemaVersioner is a store that reports its schema version.
type schemaVersioner interface {
	SchemaVersions(ctx context.Context) (have, want int, err error)
}

func runMigrate(a *app, args []string) error {
	fs := a.flags()
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	c.Migrate = true
	s, err := c.OpenStore(a.ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	out := map[string]any{"store": c.Describe(s)}
	if v, ok := s.(schemaVersioner); ok {
		have, _, err := v.SchemaVersions(a.ctx)
		if err != nil {
			return err
		}
		out["schema_version"] = have
	}
	if a.json {
		return a.printJSON(out)
	}
	if v, ok := out["schema_version"]; ok {
		fmt.Fprintf(a.stdout, "%s: schema at version %d\n", out["store"], v)
	} else {
		fmt.Fprintf(a.stdout, "%s: schema up to date\n", out["store"])
	}
	return nil
}

// copyResult counts what migrate-store did.
type copyResult struct {
	Records   int                `json:"records"`
	Written   mneme.WriteResult  `json:"written"`
	Vectors   int                `json:"vectors"`
	Documents int                `json:"documents"`
	Embedder  mneme.EmbedderInfo `json:"embedder,omitzero"`
	Seconds   float64            `json:"seconds"`
}

func runMigrateStore(a *app, args []string) error {
	fs := a.flags()
	from := fs.String("from", "", "the store to copy from, like sqlite:DIR or postgres")
	to := fs.String("to", "", "the store to copy into, like postgres or sqlite:DIR")
	batch := fs.Int("batch", 1000, "records per transaction")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return mneme.Invalid("migrate-store needs --from and --to, like --from sqlite:$HOME/.local/share/mneme --to postgres")
	}
	if *from == *to {
		return mneme.Invalid("--from and --to name the same store")
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	src, err := c.OpenStoreDSN(a.ctx, *from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := c.OpenStoreDSN(a.ctx, *to)
	if err != nil {
		return err
	}
	defer dst.Close()
	var bar func(done, total int)
	if !a.json && isTerminal(a.stderr) {
		bar = progressBar(a, "copy  ", "memories")
	}
	res, err := copyStore(a.ctx, src, dst, max(*batch, 1), bar)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "copied %s (%d new, %d updated, %d already there), %s, %s from %s to %s in %.1fs\n",
		mneme.Plural(res.Records, "memory", "memories"), res.Written.Inserted, res.Written.Updated, res.Written.SkippedDuplicates,
		mneme.Plural(res.Vectors, "vector", "vectors"), mneme.Plural(res.Documents, "document", "documents"),
		c.Describe(src), c.Describe(dst), res.Seconds)
	return nil
}

// copyStore copies every record (with its links and status), the home
// embedder's vectors and the documents from src to dst, in batches.
// Records are imported by id, so running it again skips what is already
// there: an interrupted copy resumes.
func copyStore(ctx context.Context, src, dst mneme.Store, batch int, progress func(done, total int)) (copyResult, error) {
	start := time.Now()
	var res copyResult
	srcCopy, ok1 := src.(mneme.Copier)
	dstCopy, ok2 := dst.(mneme.Copier)
	if !ok1 || !ok2 {
		return res, mneme.Invalid("both stores must support copying (sqlite and postgres do)")
	}
	info, hasEmbedder, err := src.HomeEmbedder(ctx)
	if err != nil {
		return res, err
	}
	if hasEmbedder {
		res.Embedder = info
		cur, ok, err := dst.HomeEmbedder(ctx)
		if err != nil {
			return res, err
		}
		if ok && cur != info {
			return res, mneme.Errorf(mneme.ECONFLICT, "the target's vectors come from %s (%d dimensions), the source's from %s (%d dimensions): copy into an empty store, or run `mneme reindex` on one of them first", cur.ID(), cur.Dim, info.ID(), info.Dim)
		}
		if !ok {
			if err := dst.SetHomeEmbedder(ctx, info); err != nil {
				return res, err
			}
		}
	}
	now := time.Now().UTC()
	st, err := src.Stats(ctx, now)
	if err != nil {
		return res, err
	}
	copyAll := func() error {
		return copyRecords(ctx, src, srcCopy, dst, batch, hasEmbedder, now, st.Total, progress, &res)
	}
	if bulk, ok := dst.(interface {
		BulkLoad(context.Context, func() error) error
	}); ok && st.Total >= 10_000 {
		err = bulk.BulkLoad(ctx, copyAll) // the search indexes are built once, at the end
	} else {
		err = copyAll()
	}
	if err != nil {
		return res, err
	}
	docs, err := srcCopy.AllDocuments(ctx)
	if err == nil && len(docs) > 0 {
		err = dstCopy.PutDocuments(ctx, docs)
	}
	res.Documents = len(docs)
	res.Seconds = time.Since(start).Seconds()
	return res, err
}

// copyRecords copies the records page by page, with their vectors.
func copyRecords(ctx context.Context, src mneme.Store, srcCopy mneme.Copier, dst mneme.Store, batch int, vectors bool, now time.Time, total int, progress func(done, total int), res *copyResult) error {
	f := mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true, IncludeExpired: true, Now: now}
	cursor := ""
	for {
		page, next, err := src.List(ctx, f, batch, cursor)
		if err != nil {
			return err
		}
		if len(page) > 0 {
			if err := copyPage(ctx, srcCopy, dst, page, vectors, now, res); err != nil {
				return err
			}
		}
		if progress != nil {
			progress(res.Records, max(total, res.Records))
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

func copyPage(ctx context.Context, src mneme.Copier, dst mneme.Store, page []*mneme.Record, vectors bool, now time.Time, res *copyResult) error {
	if vectors {
		ids := make([]string, len(page))
		for i, r := range page {
			ids[i] = r.ID
		}
		vecs, err := src.Vectors(ctx, ids)
		if err != nil {
			return err
		}
		for _, r := range page {
			r.Vector = vecs[r.ID]
		}
		res.Vectors += len(vecs)
	}
	w, err := dst.Put(ctx, page, mneme.ModeImport, now)
	if err != nil {
		return err
	}
	res.Written.Add(w)
	res.Records += len(page)
	return nil
}
