// Package lanes turns a health report (doctor's checks) into readiness per
// capability: a lane is ready, degraded (it works, worse: the caller
// decides) or unavailable, and names the checks it rests on. Pure: the
// checks are run elsewhere.
package lanes

import (
	"slices"
	"strings"

	"github.com/mneme-ai/mneme"
)

// Status of a lane.
type Status string

const (
	Ready       Status = "ready"
	Degraded    Status = "degraded"
	Unavailable Status = "unavailable"
)

// Lane is one capability's readiness. RequiredCheckIDs are the checks of
// the report it rests on; DegradedCheckIDs those of them that failed (or
// are absent: not set up).
type Lane struct {
	ID               string   `json:"id"`
	Status           Status   `json:"status"`
	Required         bool     `json:"required"`
	RequiredCheckIDs []string `json:"required_check_ids"`
	DegradedCheckIDs []string `json:"degraded_check_ids"`
}

// Schema names the format of Report.
const Schema = "mneme.doctor/v1"

// Report is `mneme doctor --json`: the checks, and the lanes over them. OK
// is false when a required lane is unavailable (or, strict, a check
// failed): doctor then exits 1.
type Report struct {
	Schema string              `json:"schema"`
	OK     bool                `json:"ok"`
	Checks []mneme.HealthCheck `json:"checks"`
	Lanes  []Lane              `json:"lanes"`
}

// Facts say what the home is set up for: they decide which lanes must be
// ready for the home to be healthy.
type Facts struct {
	Embedder bool // an embedder is configured (not none)
	Minilm   bool // the embedder is the built-in model
	Shared   bool // the store is the shared (postgres) store
	LLM      bool // an LLM is configured
	Cache    bool // the result cache is on
}

// spec is a lane: a failed blocking check makes it unavailable, a failed
// degrading one degraded. Checks the report does not hold (another
// store's) are not part of it, except own, the capability's own check:
// without it the lane is unavailable.
type spec struct {
	id, own   string
	blocking  []string
	degrading []string
	required  func(Facts) bool
}

// store is what every lane that reads memories rests on: a damaged
// database file, or one other users can read, is not fit to serve.
var store = []string{"config", "database", "database-file", "file-modes", "postgres", "schema"}

func always(Facts) bool { return true }

// specs is the registry of lanes, in report order. A capability that lands
// later (a result cache, ops) adds its lane here.
var specs = []spec{
	{id: "recall-lexical", own: "database", blocking: store, degrading: []string{"lexical-index", "indexes", "disk-space"}, required: always},
	{id: "recall-hybrid", own: "embedder", blocking: append(slices.Clone(store), "embedder", "pgvector"),
		degrading: []string{"vectors", "vector-index", "vector-column", "lexical-index", "indexes"}, required: func(f Facts) bool { return f.Embedder }},
	{id: "context", own: "database", blocking: store, degrading: []string{"lexical-index", "indexes", "embedder", "vectors", "vector-index"}, required: always},
	{id: "summarize-abstractive", own: "llm", blocking: append(slices.Clone(store), "llm"), required: func(f Facts) bool { return f.LLM }},
	{id: "shared-store", own: "shared-store", blocking: []string{"config", "shared-store", "postgres", "schema", "pgvector", "write-probe"},
		degrading: []string{"indexes", "vector-column"}, required: func(f Facts) bool { return f.Shared }},
	{id: "model", own: "model", blocking: []string{"model"}, required: func(f Facts) bool { return f.Minilm }},
	{id: "code", own: "code", blocking: []string{"config", "code"}, required: func(Facts) bool { return false }},
	{id: "cache", own: "cache", blocking: append(slices.Clone(store), "cache"), required: func(f Facts) bool { return f.Cache }},
	{id: "ops", own: "database", blocking: store, degrading: []string{"lexical-index", "indexes", "disk-space"}, required: always},
}

// IDs are the lanes' ids, in report order.
func IDs() []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.id
	}
	return out
}

// CheckID is the stable id of a check: its name in lower case, words
// joined by '-' ("database file" → "database-file").
func CheckID(name string) string { return strings.ReplaceAll(strings.ToLower(name), " ", "-") }

// Evaluate is every lane's readiness over checks. A check that is absent
// (Absent: not set up) counts as failed for the lanes that rest on it.
func Evaluate(checks []mneme.HealthCheck, f Facts) []Lane {
	state := map[string]bool{} // id → passed
	for _, c := range checks {
		id := CheckID(c.Name)
		ok, seen := state[id]
		state[id] = (ok || !seen) && c.OK && !c.Absent
	}
	out := make([]Lane, 0, len(specs))
	for _, s := range specs {
		l := Lane{ID: s.id, Status: Ready, Required: s.required(f), RequiredCheckIDs: []string{}, DegradedCheckIDs: []string{}}
		for i, group := range [][]string{s.blocking, s.degrading} {
			for _, id := range group {
				ok, held := state[id]
				if !held || slices.Contains(l.RequiredCheckIDs, id) {
					continue
				}
				l.RequiredCheckIDs = append(l.RequiredCheckIDs, id)
				if ok {
					continue
				}
				l.DegradedCheckIDs = append(l.DegradedCheckIDs, id)
				if i == 0 {
					l.Status = Unavailable
				} else if l.Status == Ready {
					l.Status = Degraded
				}
			}
		}
		if _, held := state[s.own]; !held { // the capability was not checked: the report cannot vouch for it
			l.Status = Unavailable
		}
		out = append(out, l)
	}
	return out
}

// Blocked lists the required lanes that are unavailable: doctor exits 1
// when there is one.
func Blocked(ls []Lane) []string {
	var out []string
	for _, l := range ls {
		if l.Required && l.Status == Unavailable {
			out = append(out, l.ID)
		}
	}
	return out
}
