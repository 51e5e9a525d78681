package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
)

var _ mneme.IntegrityChecker = (*Store)(nil)

// Integrity checks the database file (the optional mneme.IntegrityChecker
// role): PRAGMA quick_check reads every page, PRAGMA integrity_check
// (deep) also compares every index with its table.
func (s *Store) Integrity(ctx context.Context, deep bool) (mneme.HealthCheck, error) {
	pragma := "quick_check"
	if deep {
		pragma = "integrity_check"
	}
	c := mneme.HealthCheck{Name: "database file", OK: true}
	problems, err := s.pragmaCheck(ctx, pragma)
	if ctx.Err() != nil {
		return c, translate(err, "check the database file")
	}
	if err != nil {
		if !isCorrupt(err) {
			return c, translate(err, "check the database file")
		}
		problems = append(problems, err.Error())
	}
	path := FileName // named within the home: a check's detail may reach a server's callers
	if len(problems) == 0 {
		c.Detail = fmt.Sprintf("%s: PRAGMA %s ok", path, pragma)
		if !deep {
			c.Detail += " (--deep: also compare every index with its table)"
		}
		return c, nil
	}
	more := ""
	if len(problems) > 3 {
		more = fmt.Sprintf(" (and %d more problems)", len(problems)-3)
		problems = problems[:3]
	}
	c.OK, c.Fix = false, damagedFix
	c.Detail = fmt.Sprintf("%s is damaged: PRAGMA %s: %s%s", path, pragma, strings.Join(problems, "; "), more)
	return c, nil
}

// pragmaCheck runs a checking pragma and returns the problems it reports.
func (s *Store) pragmaCheck(ctx context.Context, pragma string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "PRAGMA "+pragma)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return problems, err
		}
		for _, l := range strings.Split(line, "\n") { // a problem may span lines
			if l = strings.TrimSpace(l); l != "ok" && l != "" && !strings.HasPrefix(l, "*** in database") {
				problems = append(problems, l)
			}
		}
	}
	return problems, rows.Err()
}
