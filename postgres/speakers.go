package postgres

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// Speakers returns those of names that are the speaker of a record passing
// f (the mneme.SpeakerFinder role): one statement, a seek per name on
// records_speaker (migrations/0014), each stopping at its first visible
// record.
func (s *Store) Speakers(ctx context.Context, names []string, f mneme.Filter) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if err := mneme.CheckSpeakerNames(names); err != nil {
		return nil, err
	}
	var a args
	q := speakersSQL(&a, names, f)
	rows, err := s.pool.Query(ctx, q, a...)
	if err != nil {
		return nil, s.translate(err, "find speakers")
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, s.translate(err, "find speakers")
		}
		out = append(out, n)
	}
	return out, s.translate(rows.Err(), "find speakers")
}

// speakersSQL probes names under f, adding its arguments to a.
func speakersSQL(a *args, names []string, f mneme.Filter) string {
	ns := a.add(names)
	// LATERAL … LIMIT 1: one seek per name, stopping at its first visible
	// record (an EXISTS may become a semi join over the project's turns).
	return `SELECT DISTINCT v.n FROM unnest(` + ns + `::text[]) AS v(n)
		CROSS JOIN LATERAL (SELECT 1 FROM records r WHERE lower(r.speaker) = lower(v.n) AND r.speaker <> '' AND ` + where(f, a) + ` LIMIT 1) x`
}
