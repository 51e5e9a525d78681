package ops

import (
	"context"

	"github.com/mneme-ai/mneme"
)

// parentsExist refuses an entry naming a session or a run that neither
// the batch nor the store (as the caller sees it, in project) holds, and
// an entry naming a run of another session.
func parentsExist(ctx context.Context, eng *mneme.Engine, project string, entries []Entry) error {
	p := parents{ctx: ctx, eng: eng, project: project, sessions: map[string]bool{}, runs: map[string]string{}, batchRuns: map[string]string{}}
	for _, e := range entries {
		switch e.Kind {
		case KindSession:
			p.sessions[e.Session] = true
		case KindRun:
			p.batchRuns[e.Run] = e.Session
		}
	}
	for i, e := range entries {
		if err := p.session(i, e.Session); err != nil {
			return err
		}
		if e.Run == "" {
			continue
		}
		if err := p.run(i, e); err != nil {
			return err
		}
	}
	return nil
}

// parents are the sessions and runs known so far: from the batch, or
// found in the store (a run's session by its id).
type parents struct {
	ctx      context.Context
	eng      *mneme.Engine
	project  string
	sessions map[string]bool
	runs     map[string]string // checked: run id to its session
	// batchRuns are the batch's run rows: run id to session.
	batchRuns map[string]string
}

func (p *parents) session(i int, id string) error {
	if p.sessions[id] {
		return nil
	}
	if _, ok, err := p.stored(KindSession, mneme.Filter{SessionID: id}); err != nil || !ok {
		if err == nil {
			err = fieldErr(i, "session", "no session %q in this batch or in project %q: send its session entry first", mneme.Clip(id), p.project)
		}
		return err
	}
	p.sessions[id] = true
	return nil
}

// run checks entry i's run: the store's run of that id (if any) and the
// batch's run row agree on its session, and so does the entry.
func (p *parents) run(i int, e Entry) error {
	session, ok := p.runs[e.Run]
	if !ok {
		r, found, err := p.stored(KindRun, mneme.Filter{RunID: e.Run})
		if err != nil {
			return err
		}
		inBatch, batched := p.batchRuns[e.Run]
		switch {
		case found:
			session = r.SessionID
		case batched:
			session = inBatch
		default:
			return fieldErr(i, "run", "no run %q in this batch or in project %q: send its run entry first", mneme.Clip(e.Run), p.project)
		}
		p.runs[e.Run] = session
	}
	if session != e.Session {
		return fieldErr(i, "run", "run %q belongs to session %q, not %q: name the run's own session", mneme.Clip(e.Run), mneme.Clip(session), mneme.Clip(e.Session))
	}
	return nil
}

// stored finds the latest entry of kind that f selects in the project,
// under the caller's clearance.
func (p *parents) stored(kind string, f mneme.Filter) (*mneme.Record, bool, error) {
	f.Project, f.Kinds, f.Tags, f.Clearance = p.project, []string{kind}, []string{Tag}, mneme.ScopeFrom(p.ctx).Reads()
	recs, _, err := p.eng.List(p.ctx, f, 1, "")
	if err != nil || len(recs) == 0 {
		return nil, false, err
	}
	return recs[0], true, nil
}
