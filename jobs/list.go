package jobs

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme"
)

// List returns the entries q selects that the caller may see, newest
// first: a scope limited to projects sees only their entries (not the
// store-wide jobs', nor other projects'). A running entry whose lease
// ended, or whose process on this host is gone, is shown interrupted.
func List(ctx context.Context, eng *mneme.Engine, q Query) ([]Entry, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	led, ok := eng.Store().(Ledger)
	if !ok {
		return []Entry{}, nil
	}
	if sc := mneme.ScopeFrom(ctx); len(sc.Projects) > 0 {
		q.Projects = sc.Projects
	}
	out, err := led.Jobs(ctx, q)
	if err != nil {
		return nil, err
	}
	now := eng.Now()
	for i := range out {
		e := &out[i]
		if e.Status == Running && (now.After(e.AliveUntil) || gone(e.Owner)) {
			e.Status = Interrupted
			if e.Error == "" {
				e.Error = "the run stopped without recording its end (killed, or its machine stopped); a new run resumes from the cursor, if any"
			}
		}
		if e.Counts == nil {
			e.Counts = map[string]int{}
		}
	}
	return out, nil
}

// Check refuses a query no surface should send (an unknown kind, a limit
// out of range) and fills in the default limit: surfaces call it before
// they open a store.
func (q *Query) Check() error {
	if err := CheckKind(q.Kind); err != nil {
		return err
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit < 0 || q.Limit > MaxLimit:
		return mneme.Invalid("limit %d is out of range: use 1 to %d entries", q.Limit, MaxLimit)
	}
	return nil
}

// Last returns the latest entry of each kind the caller may see, in the
// order of Kinds (kinds never run are left out).
func Last(ctx context.Context, eng *mneme.Engine) ([]Entry, error) {
	out := []Entry{}
	for _, k := range Kinds {
		es, err := List(ctx, eng, Query{Kind: k, Limit: 1})
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// CheckKind refuses a kind not in Kinds ("" is every kind).
func CheckKind(k Kind) error {
	if k == "" {
		return nil
	}
	for _, known := range Kinds {
		if k == known {
			return nil
		}
	}
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return mneme.Invalid("job kind %q is not one of %s", mneme.Clip(string(k)), strings.Join(names, ", "))
}

// gone reports whether owner is a process on this host that has ended.
func gone(owner string) bool {
	i := strings.LastIndexByte(owner, ':')
	if i < 0 {
		return false
	}
	host, _ := os.Hostname()
	pid, err := strconv.Atoi(owner[i+1:])
	if owner[:i] != host || err != nil || pid <= 0 {
		return false
	}
	return !alive(pid)
}
