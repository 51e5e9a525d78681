package mneme

import "time"

// RecallDefaults are a deployment's defaults for the recall options a
// query leaves out (config.json's recall section): each applies where
// the query's field is its zero value, before the built-in default.
// Fusion and alpha are the ranking profile's (WithProfile: config.json's
// ranking section), so they have one place. A
// query cannot ask for the zero value of a field given a default here
// (min_score 0, mmr 0, no expansion): set those per deployment only when
// every caller should have them.
type RecallDefaults struct {
	Mode     Mode    `json:"mode,omitempty"`
	MinScore float64 `json:"min_score,omitempty"`
	MMR      float64 `json:"mmr,omitempty"`
	Expand   int     `json:"expand,omitempty"`
	HalfLife string  `json:"half_life,omitempty"` // like 30d
	halfLife time.Duration
}

// Check refuses defaults a query could not have, as Recall refuses the
// query, and parses the half-life.
func (d *RecallDefaults) Check() error {
	if d.HalfLife != "" {
		h, err := ParseDuration(d.HalfLife)
		if err != nil || h <= 0 {
			return Invalid("half_life %q is not a positive duration: use forms like 30d, 2w or 72h", Clip(d.HalfLife))
		}
		d.halfLife = h
	}
	q := Query{Text: "x", K: 1}
	d.fill(&q)
	return q.check()
}

// fill sets d's values on the fields q leaves out.
func (d *RecallDefaults) fill(q *Query) {
	if d == nil {
		return
	}
	if q.Mode == "" {
		q.Mode = d.Mode
	}
	if q.MinScore == 0 {
		q.MinScore = d.MinScore
	}
	if q.MMR == 0 {
		q.MMR = d.MMR
	}
	if q.Expand == 0 {
		q.Expand = d.Expand
	}
	if q.HalfLife == 0 {
		q.HalfLife = d.halfLife
	}
}

// WithRecallDefaults makes the Engine's recalls take d's values for the
// options they leave out (d checked: RecallDefaults.Check).
func WithRecallDefaults(d RecallDefaults) Option {
	return func(e *Engine) { e.recallDefaults = &d }
}
