package main

import (
	"flag"

	"github.com/mneme-ai/mneme"
)

// recallOptions are recall's retrieval flags; they map one to one onto the
// request JSON's fields.
type recallOptions struct {
	mode, fusion, halfLife  string
	profile                 string
	alpha, minScore, mmr    float64
	rerank, hyde, unmatched bool
	noFeedback              bool
	expand                  int
}

func (o *recallOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.mode, "mode", "", "retrieval: hybrid (words and meaning; the default, unless config.json's recall.mode says otherwise), vector or lexical")
	fs.StringVar(&o.fusion, "fusion", "", "how hybrid combines its lanes: weighted (default) or rrf")
	fs.Float64Var(&o.alpha, "alpha", 0, "weight of words against meaning in weighted fusion, 0 to 1 (default: the ranking profile's, 0.35 unless config.json's ranking section says otherwise)")
	fs.StringVar(&o.profile, "profile", "", "rank by this ranking profile of config.json's ranking.profiles (default: the home's)")
	fs.Float64Var(&o.minScore, "min-score", 0, "drop hits whose score is below this (0 to 1)")
	fs.BoolVar(&o.unmatched, "include-unmatched", false, "also return hits without evidence: no query word, and a meaning below the match floor (held back by default)")
	fs.BoolVar(&o.noFeedback, "no-feedback", false, "no second search with the words of the best hits (a short query over long texts adds them by default)")
	fs.BoolVar(&o.rerank, "rerank", false, "rerank by phrase match, term coverage, recency and the type the query asks for")
	fs.Float64Var(&o.mmr, "mmr", 0, "diversify: λ from 0 (most diverse) to 1 (most relevant)")
	fs.IntVar(&o.expand, "expand", 0, "add up to N records per hit: those its links point to and those linking to it (derived_from, relates_to, follows), turns of its session, chunks of its document, versions it replaced")
	fs.StringVar(&o.halfLife, "half-life", "", "weight by recency: a record this old counts half (like 30d)")
	fs.BoolVar(&o.hyde, "hyde", false, "also embed a hypothetical answer (from the configured LLM, else the best lexical hits)")
}

// request sets o's options on r.
func (o *recallOptions) request(r mneme.RecallRequest) mneme.RecallRequest {
	r.Mode, r.Fusion, r.Alpha, r.MinScore = mneme.Mode(o.mode), mneme.Fusion(o.fusion), o.alpha, o.minScore
	r.Rerank, r.MMR, r.Expand, r.HalfLife, r.IncludeUnmatched = o.rerank, o.mmr, o.expand, o.halfLife, o.unmatched
	r.NoFeedback, r.Profile = o.noFeedback, o.profile
	if o.hyde {
		r.HyDE = &mneme.HyDERequest{Generate: true}
	}
	return r
}
