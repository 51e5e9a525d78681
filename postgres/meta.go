package postgres

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme"
)

// formEscaper writes a typed meta form (mneme.MetaForms) as PostgreSQL
// text, which holds no NUL: \ becomes \\ and NUL \0, so distinct forms stay
// distinct.
var formEscaper = strings.NewReplacer(`\`, `\\`, "\x00", `\0`)

// metaFormsOf is the meta_forms column of a record with meta (see
// migration 0010): nil (NULL) when no value can match a filter.
func metaFormsOf(meta json.RawMessage) []string {
	forms := mneme.MetaForms(meta)
	if len(forms) == 0 {
		return nil
	}
	for i, f := range forms {
		forms[i] = formEscaper.Replace(f)
	}
	return forms
}

// metaCondition renders one meta condition as an overlap of meta_forms
// with the typed forms its value matches (mneme.MetaMatch.Forms), which
// the GIN index records_meta_forms answers. A record without the key has
// none of them: it does not pass.
func metaCondition(m mneme.MetaMatch, a *args) string {
	forms := m.Forms()
	for i, f := range forms {
		forms[i] = formEscaper.Replace(f)
	}
	return "r.meta_forms && " + a.add(forms) + "::text[]"
}

// afterMigration holds the steps a migration needs done in Go, run in its
// transaction right after its file.
var afterMigration = map[string]func(context.Context, pgx.Tx) error{
	"migrations/0010_meta_forms.sql": backfillMetaForms,
}

// backfillMetaForms fills meta_forms for the records written before
// migration 0010, a batch at a time.
func backfillMetaForms(ctx context.Context, tx pgx.Tx) error {
	const batch = 5000
	for after := int64(0); ; {
		rows, err := tx.Query(ctx, "SELECT rid, meta FROM records WHERE meta IS NOT NULL AND rid > $1 ORDER BY rid LIMIT $2", after, batch)
		if err != nil {
			return err
		}
		var read int
		var rids []int64
		var forms []string // each row's forms, as an array literal
		err = forRows(rows, func() error {
			var meta string
			if err := rows.Scan(&after, &meta); err != nil {
				return err
			}
			read++
			if f := metaFormsOf(json.RawMessage(meta)); f != nil {
				rids, forms = append(rids, after), append(forms, arrayLiteral(f))
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(rids) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE records r SET meta_forms = u.forms::text[]
				FROM unnest($1::bigint[], $2::text[]) AS u(rid, forms) WHERE r.rid = u.rid`, rids, forms); err != nil {
				return err
			}
		}
		if read < batch {
			return nil
		}
	}
}

var literalEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// arrayLiteral writes elems as a PostgreSQL array literal of quoted
// elements.
func arrayLiteral(elems []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(literalEscaper.Replace(e))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}
