// Package evidence is the content-free evidence export of a context
// package: what an orchestrator logs as proof of the context an agent got,
// and a use, hold or blocked decision from thresholds. It holds only
// hashes, counts, booleans, bounded reason codes and normalised scores:
// never the query, a record's text, a snippet, a path or a project name.
// (A sha256 identifies a text it does not hide: see package quality.)
package evidence

import (
	"context"
	"math"
	"slices"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/quality"
)

// Schema names the export's format.
const Schema = "mneme.evidence/v1"

// Decisions.
const (
	Use     = "use"
	Hold    = "hold"
	Blocked = "blocked"
)

// Decision reason codes.
const (
	NoEvidence      = "no_evidence"      // no memory is in the package
	TooFewItems     = "too_few_items"    // fewer memories than min_items
	LowScore        = "low_score"        // the best score is under min_score
	LowGroundedness = "low_groundedness" // groundedness is under min_groundedness
	DegradedLanes   = "degraded"         // a lane did not run (words alone)
)

// Thresholds decide: blocked without evidence (or degraded, when Degraded
// says blocked); hold under a threshold (or degraded, by default); else
// use.
type Thresholds struct {
	MinItems        int     `json:"min_items,omitempty"`        // memories kept; 0: 1
	MinScore        float64 `json:"min_score,omitempty"`        // the best normalised score, 0 to 1
	MinGroundedness float64 `json:"min_groundedness,omitempty"` // when the report has a groundedness, 0 to 1
	Degraded        string  `json:"degraded,omitempty"`         // the decision when degraded: use, hold (default) or blocked
}

// Check validates t and fills in its defaults.
func (t *Thresholds) Check() error {
	if t.MinItems == 0 {
		t.MinItems = 1
	}
	if t.Degraded == "" {
		t.Degraded = Hold
	}
	switch {
	case t.MinItems < 1 || t.MinItems > 1000:
		return mneme.Invalid("min_items %d is out of range: use 1 to 1000", t.MinItems)
	case !unit(t.MinScore):
		return mneme.Invalid("min_score %v is out of range: use 0 to 1", t.MinScore)
	case !unit(t.MinGroundedness):
		return mneme.Invalid("min_groundedness %v is out of range: use 0 to 1", t.MinGroundedness)
	case !slices.Contains([]string{Use, Hold, Blocked}, t.Degraded):
		return mneme.Invalid("degraded %q is not a decision: use use, hold or blocked", mneme.Clip(t.Degraded))
	}
	return nil
}

func unit(x float64) bool { return x >= 0 && x <= 1 }

// Request is a context request with the thresholds of its decision.
type Request struct {
	contextpack.Request
	Thresholds Thresholds `json:"thresholds,omitempty"`
}

// Export is the evidence about one context package.
type Export struct {
	Schema        string `json:"schema"`
	QuerySHA256   string `json:"query_sha256"`
	ScopeSHA256   string `json:"scope_sha256"`
	PackageSHA256 string `json:"package_sha256"` // of the package's text
	Items         []Item `json:"items"`
	Counts        Counts `json:"counts"`
	// Scores are normalised to 0..1: TopScore the best kept memory's,
	// MeanScore the kept memories' mean.
	TopScore         float64    `json:"top_score"`
	MeanScore        float64    `json:"mean_score"`
	CompressionRatio float64    `json:"compression_ratio"`
	Groundedness     *float64   `json:"groundedness,omitempty"`
	Degraded         bool       `json:"degraded"`
	Reasons          []string   `json:"reasons"` // the quality report's codes
	Decision         string     `json:"decision"`
	DecisionReasons  []string   `json:"decision_reasons"`
	Thresholds       Thresholds `json:"thresholds"`
}

// Item is one memory kept in the package.
type Item struct {
	RecordSHA256 string  `json:"record_sha256"` // of the record's whole text
	Spans        int     `json:"spans"`
	Tokens       int     `json:"tokens"`
	Whole        bool    `json:"whole"`
	Score        float64 `json:"score"`
}

// Counts are the package's numbers.
type Counts struct {
	Candidates        int `json:"candidates"`
	Kept              int `json:"kept"`
	Dropped           int `json:"dropped"`
	DroppedBudget     int `json:"dropped_budget"`
	DroppedRedundancy int `json:"dropped_redundancy"`
	DroppedLowScore   int `json:"dropped_low_score"`
	Groups            int `json:"groups"`
	TokensUsed        int `json:"tokens_used"`
	Budget            int `json:"budget"`
}

// Build assembles the package req asks for, at clearance, and exports its
// evidence (the quality report is asked for: its hashes and codes are
// part of the export).
func Build(ctx context.Context, eng *mneme.Engine, req Request, clearance mneme.Sensitivity) (*Export, error) {
	if err := req.Thresholds.Check(); err != nil {
		return nil, err
	}
	req.Report = true
	pkg, err := contextpack.Build(ctx, eng, req.Request, clearance)
	if err != nil {
		return nil, err
	}
	return Of(pkg, req.Thresholds), nil
}

// Of is the evidence of pkg (built with a quality report) under t
// (checked).
func Of(pkg *contextpack.Package, t Thresholds) *Export {
	e := &Export{Schema: Schema, PackageSHA256: quality.Hash(pkg.Text), Items: []Item{}, Thresholds: t,
		CompressionRatio: norm(pkg.CompressionRatio), Degraded: pkg.Degraded, Reasons: []string{}, DecisionReasons: []string{}}
	if r := pkg.Report; r != nil {
		e.QuerySHA256, e.ScopeSHA256, e.Reasons = r.QuerySHA256, r.ScopeSHA256, slices.Clone(r.Reasons)
		if r.Groundedness != nil {
			g := norm(*r.Groundedness)
			e.Groundedness = &g
		}
	}
	sum := 0.0
	for _, g := range pkg.Groups {
		for _, it := range g.Items {
			item := Item{Spans: len(it.Spans), Tokens: it.Tokens, Whole: it.Whole, Score: norm(it.Score)}
			if len(it.Spans) > 0 {
				item.RecordSHA256 = it.Spans[0].SHA256
			}
			e.Items = append(e.Items, item)
			e.TopScore = max(e.TopScore, item.Score)
			sum += item.Score
		}
	}
	e.Counts = Counts{Candidates: pkg.Candidates, Kept: len(e.Items), Dropped: len(pkg.Dropped), Groups: len(pkg.Groups),
		TokensUsed: pkg.TokensUsed, Budget: pkg.Budget}
	for _, d := range pkg.Dropped {
		switch d.Reason {
		case contextpack.DropBudget:
			e.Counts.DroppedBudget++
		case contextpack.DropRedundancy:
			e.Counts.DroppedRedundancy++
		case contextpack.DropLowScore:
			e.Counts.DroppedLowScore++
		}
	}
	if len(e.Items) > 0 {
		e.MeanScore = round(sum / float64(len(e.Items)))
	}
	e.decide()
	return e
}

func (e *Export) decide() {
	t := e.Thresholds
	hold := func(code string) { e.DecisionReasons = append(e.DecisionReasons, code) }
	if e.Counts.Kept == 0 {
		hold(NoEvidence)
	}
	if e.Counts.Kept < t.MinItems && e.Counts.Kept > 0 {
		hold(TooFewItems)
	}
	if e.TopScore < t.MinScore {
		hold(LowScore)
	}
	if e.Groundedness != nil && *e.Groundedness < t.MinGroundedness {
		hold(LowGroundedness)
	}
	if e.Degraded && t.Degraded != Use {
		hold(DegradedLanes)
	}
	switch {
	case e.Counts.Kept == 0 || e.Degraded && t.Degraded == Blocked:
		e.Decision = Blocked
	case len(e.DecisionReasons) > 0:
		e.Decision = Hold
	default:
		e.Decision = Use
	}
}

// norm is x clamped to 0..1 and rounded to 4 decimals.
func norm(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return round(min(max(x, 0), 1))
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
