// Package quality builds the quality report of a recall, a context
// package or a groundedness check: how long each stage took, how many
// candidates each retrieval lane found, how the scores spread, the
// package's compression, the answer's groundedness, reason codes and
// whether the work ran degraded. A report is content-free: it holds
// numbers, stage and reason names, and the sha256 of the query and of the
// caller's scope (to correlate reports without storing what was asked),
// never query text, record text, snippets, answers, paths or project
// names. Reports are opt-in (`--report`, `"report": true`).
//
// A sha256 identifies a text; it does not hide one that can be guessed: a
// short, common query can be confirmed by hashing candidates. Treat the
// hashes as correlation keys, not as secrecy.
//
// The package depends on nothing in mneme, so the Engine (which builds a
// recall's report), contextpack and ground can all use it.
package quality

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Kinds of report.
const (
	KindRecall  = "recall"
	KindContext = "context"
	KindGround  = "ground"
)

// Reason codes of a recall's report (a context package's adds its own,
// a groundedness check's are ground's).
const (
	NoHits              = "no_hits"
	Degraded            = "degraded"              // the vector lane could not run: words alone
	NoLexicalCandidates = "no_lexical_candidates" // the lexical lane ran and found nothing
	NoVectorCandidates  = "no_vector_candidates"  // the vector lane ran and found nothing
	NoHitInBothLanes    = "no_hit_in_both_lanes"  // both lanes ran, no hit was found by both
	HeldBack            = "held_back"             // hits without evidence were held back
	EmptyPackage        = "empty_package"         // no memory fitted or matched
	DroppedForBudget    = "dropped_for_budget"    // a candidate did not fit the budget
	LexicalOnly         = "lexical_only"          // no embedder: support by words alone
)

// Report is the quality report of one call.
type Report struct {
	Kind        string  `json:"kind"` // recall, context or ground
	QuerySHA256 string  `json:"query_sha256,omitempty"`
	ScopeSHA256 string  `json:"scope_sha256"`
	Mode        string  `json:"mode,omitempty"` // of the recall
	Stages      []Stage `json:"stages"`
	// Candidates are the recall's candidates before ranking, by the lanes
	// that found them; Hits the hits returned.
	Candidates *Lanes   `json:"candidates,omitempty"`
	Hits       *Lanes   `json:"hits,omitempty"`
	Scores     *Scores  `json:"scores,omitempty"`
	Context    *Context `json:"context,omitempty"`
	Ground     *Ground  `json:"ground,omitempty"`
	// CompressionRatio is a context package's (retained tokens over the
	// full texts' tokens); Groundedness a check's score (its weakest
	// sentence's).
	CompressionRatio *float64 `json:"compression_ratio,omitempty"`
	Groundedness     *float64 `json:"groundedness,omitempty"`
	Reasons          []string `json:"reasons"`
	Degraded         bool     `json:"degraded"`
	// Cache is hit or miss for each kind of cached result consulted.
	Cache  map[string]string `json:"cache,omitempty"`
	TookMS float64           `json:"took_ms"`
}

// Stage is how long one stage took.
type Stage struct {
	Name string  `json:"name"`
	MS   float64 `json:"ms"`
}

// Lanes counts records by the retrieval lanes that found them: the
// lexical lane alone, the vector lane alone, or both; Expanded counts
// hits added as neighbours of others (no lane found them). Total is the
// sum.
type Lanes struct {
	Total    int `json:"total"`
	Lexical  int `json:"lexical"`
	Vector   int `json:"vector"`
	Both     int `json:"both"`
	Expanded int `json:"expanded,omitempty"`
	// Window: found by the search restricted to the time the query names
	// alone (neither lane's pool over the home held it).
	Window int `json:"window,omitempty"`
}

// Scores summarises the scores of the hits (of a recall or a package's
// recall) or of the sentences (of a check). For hits: Final is the score
// a hit ranks by, Fused its score after fusion, Lexical and Vector its
// lanes' scores over the hits that lane found. For sentences: Final is
// the sentence's score, Lexical its term coverage, Vector its best cosine
// similarity (with an embedder).
type Scores struct {
	Final   *Summary `json:"final,omitempty"`
	Fused   *Summary `json:"fused,omitempty"`
	Lexical *Summary `json:"lexical,omitempty"`
	Vector  *Summary `json:"vector,omitempty"`
}

// Summary is the spread of N values.
type Summary struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

// Context counts what a context package did with its candidates.
type Context struct {
	Candidates        int `json:"candidates"`
	Kept              int `json:"kept"`
	DroppedBudget     int `json:"dropped_budget"`
	DroppedRedundancy int `json:"dropped_redundancy"`
	DroppedLowScore   int `json:"dropped_low_score"`
	Budget            int `json:"budget"`
	TokensUsed        int `json:"tokens_used"`
}

// Ground counts what a check looked at.
type Ground struct {
	Sentences     int `json:"sentences"`
	Supported     int `json:"supported"`
	Spans         int `json:"spans"`          // of the package
	SpansEmbedded int `json:"spans_embedded"` // compared by meaning
}

// Hash is the hex sha256 of s.
func Hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ScopeHash is the hex sha256 of a scope: its projects (sorted; none is
// every project), whether it may write, and its clearance.
func ScopeHash(projects []string, write bool, clearance string) string {
	ps := slices.Clone(projects)
	slices.Sort(ps)
	var b strings.Builder
	b.WriteString("projects:")
	for _, p := range ps {
		b.WriteString(strconv.Quote(p))
		b.WriteByte(',')
	}
	b.WriteString("\nwrite:" + strconv.FormatBool(write) + "\nclearance:" + clearance)
	return Hash(b.String())
}

// Summarize is the spread of xs; nil for none.
func Summarize(xs []float64) *Summary {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &Summary{N: len(s), Min: Round(s[0]), Median: Round(med), Max: Round(s[len(s)-1])}
}

// Count adds a record found by the lanes given (neither: an expansion).
func (l *Lanes) Count(lexical, vector bool) { l.CountFound(lexical, vector, false) }

// CountFound adds a record found by the lanes given, or by the window
// search alone (window, and neither lane).
func (l *Lanes) CountFound(lexical, vector, window bool) {
	l.Total++
	switch {
	case window && !lexical && !vector:
		l.Window++
	case lexical && vector:
		l.Both++
	case lexical:
		l.Lexical++
	case vector:
		l.Vector++
	default:
		l.Expanded++
	}
}

// AddReason adds code unless the report has it.
func (r *Report) AddReason(code string) {
	if !slices.Contains(r.Reasons, code) {
		r.Reasons = append(r.Reasons, code)
	}
}

// Timer returns a function that adds a stage of the time since its last
// call to r.
func (r *Report) Timer() func(name string) {
	last := time.Now()
	return func(name string) {
		now := time.Now()
		r.Stages = append(r.Stages, Stage{Name: name, MS: MS(now.Sub(last))})
		last = now
	}
}

// MS is d in milliseconds, to the microsecond.
func MS(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Round rounds to six places, as recall rounds its scores.
func Round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// Ptr is a pointer to x.
func Ptr(x float64) *float64 { return &x }

// Line is the report on one line, for text output.
func (r *Report) Line() string {
	var parts []string
	stages := make([]string, len(r.Stages))
	for i, s := range r.Stages {
		stages[i] = s.Name + " " + strconv.FormatFloat(s.MS, 'f', 1, 64)
	}
	parts = append(parts, r.Kind+" "+strconv.FormatFloat(r.TookMS, 'f', 1, 64)+" ms ("+strings.Join(stages, ", ")+")")
	if len(r.Cache) > 0 {
		parts = append(parts, "cache "+cacheLine(r.Cache))
	}
	if c := r.Candidates; c != nil {
		parts = append(parts, "candidates "+lanes(c))
	}
	if h := r.Hits; h != nil {
		parts = append(parts, "hits "+lanes(h))
	}
	if c := r.Context; c != nil {
		parts = append(parts, "kept "+strconv.Itoa(c.Kept)+" of "+strconv.Itoa(c.Candidates)+" ("+strconv.Itoa(c.TokensUsed)+" of "+strconv.Itoa(c.Budget)+" tokens)")
	}
	if g := r.Ground; g != nil {
		parts = append(parts, "sentences "+strconv.Itoa(g.Supported)+" of "+strconv.Itoa(g.Sentences)+" supported, spans "+strconv.Itoa(g.Spans)+" ("+strconv.Itoa(g.SpansEmbedded)+" embedded)")
	}
	if r.Scores != nil && r.Scores.Final != nil {
		f := r.Scores.Final
		parts = append(parts, "score "+num(f.Min)+"/"+num(f.Median)+"/"+num(f.Max))
	}
	if r.CompressionRatio != nil {
		parts = append(parts, "compression "+num(*r.CompressionRatio))
	}
	if r.Groundedness != nil {
		parts = append(parts, "groundedness "+num(*r.Groundedness))
	}
	if r.Degraded {
		parts = append(parts, "DEGRADED")
	}
	reasons := "none"
	if len(r.Reasons) > 0 {
		reasons = strings.Join(r.Reasons, ",")
	}
	parts = append(parts, "reasons "+reasons)
	return "report: " + strings.Join(parts, "; ")
}

func lanes(l *Lanes) string {
	s := strconv.Itoa(l.Total) + " (lexical " + strconv.Itoa(l.Lexical) + ", vector " + strconv.Itoa(l.Vector) + ", both " + strconv.Itoa(l.Both)
	if l.Expanded > 0 {
		s += ", expanded " + strconv.Itoa(l.Expanded)
	}
	return s + ")"
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// cacheLine is kind=status pairs in order of kind.
func cacheLine(st map[string]string) string {
	kinds := make([]string, 0, len(st))
	for k, v := range st {
		kinds = append(kinds, k+" "+v)
	}
	sort.Strings(kinds)
	return strings.Join(kinds, ", ")
}
