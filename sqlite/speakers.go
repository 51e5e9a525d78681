package sqlite

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Speakers returns those of names that are the speaker of a record passing
// f (the mneme.SpeakerFinder role): one statement, a seek per name on
// records_speaker (migrations/0013), each stopping at its first visible
// record.
func (s *Store) Speakers(ctx context.Context, names []string, f mneme.Filter) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if err := mneme.CheckSpeakerNames(names); err != nil {
		return nil, err
	}
	cond, cargs := where(f)
	rows, err := s.db.QueryContext(ctx, speakersSQL(len(names), cond), append(anys(names), cargs...)...)
	if err != nil {
		return nil, translate(err, "find speakers")
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, translate(err, "find speakers")
		}
		out = append(out, n)
	}
	return out, translate(rows.Err(), "find speakers")
}

// speakersSQL probes n names (the first n arguments) under cond.
func speakersSQL(n int, cond string) string {
	values := "(?)"
	for range n - 1 {
		values += ",(?)"
	}
	return `SELECT DISTINCT v.column1 FROM (VALUES ` + values + `) v
		WHERE EXISTS (SELECT 1 FROM records r WHERE lower(r.speaker) = lower(v.column1) AND r.speaker != '' AND ` + cond + `)`
}
