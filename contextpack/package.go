package contextpack

import (
	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/quality"
)

// Package is a context package: prompt-ready text and the evidence behind
// every line of it.
type Package struct {
	// Text is the prompt-ready package: per group a header line (source,
	// session, date), then one numbered line per memory, [n] citing it.
	Text      string     `json:"text"`
	Groups    []Group    `json:"groups"`
	Citations []Citation `json:"citations"`
	Dropped   []Dropped  `json:"dropped"`

	Budget     int    `json:"budget"`
	TokensUsed int    `json:"tokens_used"` // of Text, counted by Tokenizer
	Tokenizer  string `json:"tokenizer"`
	// CompressionRatio is the retained spans' tokens over the full texts'
	// tokens, for the memories in the package (1: nothing cut).
	CompressionRatio float64 `json:"compression_ratio"`
	Candidates       int     `json:"candidates"` // recall hits considered
	// ReusableBudget is the reusable block's share of the budget, when the
	// request asked for one (Request.Reusable).
	ReusableBudget int `json:"reusable_budget,omitempty"`

	Mode           mneme.Mode `json:"mode"`
	Degraded       bool       `json:"degraded,omitempty"`
	DegradedReason string     `json:"degraded_reason,omitempty"`
	Stages         []Stage    `json:"stages"`
	// HyDE names the hypothesis the recall embedded beside the query (HyDE):
	// its generator and version and the hash of its text.
	HyDE *mneme.HyDEProvenance `json:"hyde,omitempty"`
	// Cache is hit or miss for each kind of cached result consulted.
	Cache  mneme.CacheStatus `json:"cache_status"`
	TookMS float64           `json:"took_ms"`
	// Report is the quality report, when the request asked for one.
	Report *quality.Report `json:"report,omitempty"`
	// VerifiedAnswer is the answer verified for this package, when the
	// request proved a verification token (hit or miss).
	VerifiedAnswer *VerifiedAnswer `json:"verified_answer,omitempty"`
}

// Group is the package's memories from one document or session (or, for
// memories with neither, one project), in position or time order.
type Group struct {
	Header  string `json:"header"`
	Source  string `json:"source,omitempty"`
	Session string `json:"session,omitempty"`
	Project string `json:"project"`
	Date    string `json:"date"` // of the first memory, or "first – last"
	// Lane is "reusable" for the block of validated and published
	// memories (Request.Reusable), first in the package; else empty.
	Lane  string `json:"lane,omitempty"`
	Items []Item `json:"items"`
}

// Item is one memory in the package: the spans of its text kept.
type Item struct {
	N      int     `json:"n"` // its citation number
	ID     string  `json:"id"`
	Score  float64 `json:"score"`
	Rank   int     `json:"rank"` // in the recall, from 1
	Spans  []Span  `json:"spans"`
	Whole  bool    `json:"whole"`  // the spans hold all of the record's text
	Tokens int     `json:"tokens"` // of its line in Text
	// Lane is "reusable" for a memory of the reusable block, and Status
	// then its status (validated or published).
	Lane   string       `json:"lane,omitempty"`
	Status mneme.Status `json:"status,omitempty"`
	// ExpandedFrom and Relation mark a memory expansion added (expand):
	// the hit it was added for, and how it relates to it (before, after,
	// supersedes, or a link's type: derived_from, relates_to, follows);
	// Direction "incoming" when the memory links to its hit by Relation
	// (a summary derived from the hit), "" when the hit links to it.
	ExpandedFrom string `json:"expanded_from,omitempty"`
	Relation     string `json:"relation,omitempty"`
	Direction    string `json:"direction,omitempty"`
}

// Span is a byte range of a record's text, copied into the package.
type Span struct {
	ID     string `json:"id"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	SHA256 string `json:"sha256"` // hex sha256 of the whole record text
	Text   string `json:"text"`   // the record text's bytes [start, end)
}

// Citation maps [n] to the memory it cites.
type Citation struct {
	N       int    `json:"n"`
	ID      string `json:"id"`
	Source  string `json:"source,omitempty"`
	Session string `json:"session,omitempty"`
	Date    string `json:"date"`
}

// Dropped is a candidate left out, and why: "budget" (its spans did not
// fit), "redundancy" (what it says is already in the package) or
// "low_score" (its score is under LowScore of the best hit's).
type Dropped struct {
	ID     string  `json:"id"`
	Rank   int     `json:"rank"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	Lane   string  `json:"lane,omitempty"` // "reusable": of the reusable block
}

// Stage is how long one stage of the build took.
type Stage struct {
	Name string  `json:"name"` // recall, compress, fit, render
	MS   float64 `json:"ms"`
}

// Drop reasons.
const (
	DropBudget     = "budget"
	DropRedundancy = "redundancy"
	DropLowScore   = "low_score"
)

// Response is a package with its request's id echoed (batch lines, batch
// HTTP calls).
type Response struct {
	ID string `json:"id,omitempty"`
	*Package
}
