package contextpack

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/index/bm25"
	"github.com/mneme-ai/mneme/internal/textnorm"
	"github.com/mneme-ai/mneme/quality"
)

// Assembly constants, chosen on LoCoMo dev with `mneme bench locomo
// --context 1000` (docs/context.md).
const (
	// LowScore drops a candidate scoring under this share of the best
	// hit's score: past it, hits are mostly noise that costs tokens.
	LowScore = 0.2
	// wholeBytes: a record this short is kept whole; cutting a sentence
	// or two saves little and loses the context around the match.
	wholeBytes = 240
	// redundant is the Jaccard overlap of content terms above which a
	// candidate repeats one already in the package.
	redundant = 0.85
	// lineOverhead is the tokens of "[n] " and the line break.
	lineOverhead = 4
)

// Build checks req and builds its package at clearance (capped by the
// caller's scope, which travels in ctx).
func Build(ctx context.Context, eng *mneme.Engine, req Request, clearance mneme.Sensitivity) (*Package, error) {
	q, budget, err := req.Recall(eng.Now(), clearance)
	if err != nil {
		return nil, err
	}
	return AssembleFor(ctx, eng, req, q, budget)
}

// candidate is a recall hit on its way into the package.
type candidate struct {
	hit    mneme.Hit
	rank   int
	lane   string // "" for the query's own hits, LaneReusable
	spans  []Range
	line   string // the spans joined, as the package shows them
	tokens int    // of its line, overhead included
	terms  map[string]bool
	group  string
}

// Assemble runs q (a recall with the pool as k) and fits its hits to
// budget tokens, or returns the package cached for the same request.
func Assemble(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget int) (*Package, error) {
	return AssembleLanes(ctx, eng, q, budget, 0)
}

// AssembleLanes is Assemble with a reusable lane of up to reusable
// validated or published records (see Request.Reusable).
func AssembleLanes(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget, reusable int) (*Package, error) {
	return assembleKept(ctx, eng, q, budget, reusable, 0)
}

// assembleKept builds the package, lead and lanes as asked, or returns the
// one cached for the same request.
func assembleKept(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget, reusable, lead int) (*Package, error) {
	start := time.Now()
	if err := CheckReusable(reusable); err != nil {
		return nil, err
	}
	if err := eng.CheckQuery(ctx, &q); err != nil {
		return nil, err
	}
	st := mneme.CacheStatus{}
	var cached Package
	key, hit := eng.CacheLookup(ctx, st, mneme.CacheContextPackage, q.Filter.Project, packageKey(eng, q, budget, reusable, lead), &cached)
	if hit {
		cached.Cache, cached.TookMS = st, ms(time.Since(start))
		if cached.Report != nil {
			cached.Report.Cache, cached.Report.TookMS = st, cached.TookMS
		}
		return &cached, nil
	}
	q.OwnCache = key != "" // the package is cached, not the recall under it
	pkg, until, err := assemble(ctx, eng, q, budget, reusable, st, lead)
	if err != nil {
		return nil, err
	}
	if !pkg.Degraded && q.HalfLife == 0 { // recency weighting changes with the clock
		saved := *pkg // the cache encodes it later: what the caller may change is copied
		saved.Cache, saved.TookMS = nil, 0
		if pkg.Report != nil {
			rep := *pkg.Report
			saved.Report = &rep
		}
		eng.CacheKeep(ctx, mneme.CacheContextPackage, key, &saved, until)
	}
	pkg.TookMS = ms(time.Since(start))
	if pkg.Report != nil {
		pkg.Report.TookMS = pkg.TookMS
	}
	return pkg, nil
}

// CarryLed keeps pkg, the package AssembleLed gave for q, budget and lead
// (no reusable lane), as q's package at the store's current write
// generation as well: for a caller that wrote since and knows its write
// shows in no package (the hooks' session record at session start, which
// holds nothing but the session's ids), so the next identical request is
// not a miss because of it. A package Assemble would not keep is not
// carried either.
func CarryLed(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget, lead int, pkg *Package) {
	if pkg.Degraded || q.HalfLife != 0 || eng.CheckQuery(ctx, &q) != nil {
		return
	}
	var cached Package
	key, hit := eng.CacheLookup(ctx, nil, mneme.CacheContextPackage, q.Filter.Project, packageKey(eng, q, budget, 0, lead), &cached)
	if hit || key == "" {
		return
	}
	until, ok := cited(ctx, eng, pkg)
	if !ok {
		return
	}
	saved := *pkg
	saved.Cache, saved.TookMS = nil, 0
	if pkg.Report != nil {
		rep := *pkg.Report
		saved.Report = &rep
	}
	eng.CacheKeep(ctx, mneme.CacheContextPackage, key, &saved, until)
}

// cited is when the first of the memories pkg's recall found (kept or
// dropped) expires, as Assemble keeps a package until; false when one is
// gone or hidden.
func cited(ctx context.Context, eng *mneme.Engine, pkg *Package) (*time.Time, bool) {
	var ids []string
	for _, g := range pkg.Groups {
		for _, it := range g.Items {
			ids = append(ids, it.ID)
		}
	}
	for _, d := range pkg.Dropped {
		ids = append(ids, d.ID)
	}
	recs, err := eng.GetAll(ctx, ids, mneme.Secret)
	if err != nil {
		return nil, false
	}
	hits := make([]mneme.Hit, len(recs))
	for i, r := range recs {
		hits[i] = mneme.Hit{Record: r}
	}
	return mneme.HitsExpiry(hits), true
}

// packageKey is what a package's cache key covers besides the scope and
// the generations: the recall's whole key, the budget and every setting
// of the assembly.
func packageKey(eng *mneme.Engine, q mneme.Query, budget, reusable, lead int) any {
	return struct {
		Recall    any     `json:"recall"`
		Budget    int     `json:"budget"`
		Lead      int     `json:"lead,omitempty"`
		Reusable  int     `json:"reusable,omitempty"`
		Share     float64 `json:"reusable_share,omitempty"`
		Tokenizer string  `json:"tokenizer"`
		LowScore  float64 `json:"low_score"`
		Whole     int     `json:"whole_bytes"`
		Redundant float64 `json:"redundant"`
		Overhead  int     `json:"line_overhead"`
	}{eng.RecallKey(q), budget, lead, reusable, reusableShareOf(reusable), Tokenizer, LowScore, wholeBytes, redundant, lineOverhead}
}

// assemble builds the package of q afresh, noting the recall's cache
// lookups in st; until is when its first memory expires. The reusable
// lane, when asked for, is fitted first, within its share of the budget;
// the query's own hits fill what it leaves. Lead records (AssembleLed)
// come before both.
func assemble(ctx context.Context, eng *mneme.Engine, q mneme.Query, budget, reusable int, st mneme.CacheStatus, lead int) (*Package, *time.Time, error) {
	start := time.Now()
	pkg := &Package{Budget: budget, Tokenizer: Tokenizer, Dropped: []Dropped{}, Cache: st}
	stage := stageTimer(pkg)
	res, err := eng.Recall(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range res.Cache {
		st[k] = v
	}
	stage("recall")
	pkg.Mode, pkg.Degraded, pkg.DegradedReason, pkg.Candidates = res.Mode, res.Degraded, res.DegradedReason, len(res.Hits)
	pkg.HyDE = res.HyDE.Provenance(q.Hypothesis != nil)
	query := stems(q.Text)
	hits := res.Hits
	var taken []*candidate
	if lead > 0 {
		led, err := leadHits(ctx, eng, q.Filter.Project, lead)
		if err != nil {
			return nil, nil, err
		}
		hits = append(hits[:len(hits):len(hits)], led...)
		pkg.Candidates += len(led)
		taken = pkg.fit(pkg.candidates(led, query, ""), budget, nil)
	}
	if reusable > 0 {
		reuse, err := reusableHits(ctx, eng, q, reusable)
		if err != nil {
			return nil, nil, err
		}
		hits = append(hits[:len(hits):len(hits)], reuse...)
		pkg.Candidates += len(reuse)
		stage("reusable")
		pkg.ReusableBudget = int(float64(budget) * ReusableShare)
		taken = append(taken, pkg.fit(pkg.candidates(reuse, query, LaneReusable), pkg.ReusableBudget, taken)...)
	}
	cands := pkg.candidates(res.Hits, query, "")
	stage("compress")
	kept := append(taken, pkg.fit(cands, budget-cost(taken), taken)...)
	stage("fit")
	pkg.render(kept)
	for pkg.TokensUsed > budget && len(kept) > 0 { // the estimate was short: drop the weakest
		last := kept[len(kept)-1]
		kept = kept[:len(kept)-1]
		pkg.drop(last, DropBudget)
		pkg.render(kept)
	}
	pkg.CompressionRatio = compression(kept)
	stage("render")
	pkg.TookMS = ms(time.Since(start))
	if res.Report != nil {
		pkg.Report = report(res.Report, pkg)
		pkg.Report.Cache = st
	}
	return pkg, mneme.HitsExpiry(hits), nil
}

// candidates turns hits into candidates of lane, compressed to the
// spans relevant to query; those under LowScore of the best are dropped.
func (pkg *Package) candidates(hits []mneme.Hit, query map[string]bool, lane string) []*candidate {
	var cands []*candidate
	top := 0.0
	if len(hits) > 0 {
		top = hits[0].Score
	}
	for i, h := range hits {
		c := &candidate{hit: h, rank: i + 1, lane: lane, group: groupKey(h.Record)}
		if lane != "" {
			c.group = lane
		}
		if h.Score < LowScore*top {
			pkg.drop(c, DropLowScore)
			continue
		}
		c.spans = compress(h.Record.Text, query)
		c.line = joinSpans(h.Record.Text, c.spans)
		c.tokens = Tokens(c.line) + lineOverhead
		cands = append(cands, c)
	}
	return cands
}

// report is the package's quality report: its recall's, with the
// package's own stages, counts and reasons.
func report(rep *quality.Report, pkg *Package) *quality.Report {
	rep.Kind = quality.KindContext
	stages := []quality.Stage{}
	for _, s := range pkg.Stages {
		if s.Name == "recall" {
			stages = append(stages, rep.Stages...) // embed, search, rank, expand
			continue
		}
		stages = append(stages, quality.Stage{Name: s.Name, MS: s.MS})
	}
	rep.Stages = stages
	c := &quality.Context{Candidates: pkg.Candidates, Kept: len(pkg.Citations), Budget: pkg.Budget, TokensUsed: pkg.TokensUsed}
	for _, d := range pkg.Dropped {
		switch d.Reason {
		case DropBudget:
			c.DroppedBudget++
		case DropRedundancy:
			c.DroppedRedundancy++
		case DropLowScore:
			c.DroppedLowScore++
		}
	}
	rep.Context, rep.CompressionRatio = c, quality.Ptr(pkg.CompressionRatio)
	if c.Kept == 0 {
		rep.AddReason(quality.EmptyPackage)
	}
	if c.DroppedBudget > 0 {
		rep.AddReason(quality.DroppedForBudget)
	}
	rep.TookMS = pkg.TookMS
	return rep
}

// fit takes candidates by rank while they fit the budget, skipping those
// that repeat one already taken (taken before, in another lane, or now);
// it returns those taken now, by rank.
func (pkg *Package) fit(cands []*candidate, budget int, taken []*candidate) []*candidate {
	var kept []*candidate
	seen, ids := map[string]bool{}, map[string]bool{}
	groups := map[string]bool{}
	for _, c := range taken {
		seen[textnorm.Normalize(textnorm.Fold(c.line))], ids[c.hit.ID] = true, true
	}
	used := 0
	for _, c := range cands {
		norm := textnorm.Normalize(textnorm.Fold(c.line))
		c.terms = termSet(c.line)
		if ids[c.hit.ID] { // in the package already, in another lane
			continue
		}
		if seen[norm] || repeats(c, taken) || repeats(c, kept) {
			pkg.drop(c, DropRedundancy)
			continue
		}
		cost := c.tokens
		if !groups[c.group] {
			cost += Tokens(groupHeader(c, c)) + 1
		}
		if used+cost > budget {
			pkg.drop(c, DropBudget)
			continue
		}
		used += cost
		seen[norm], groups[c.group] = true, true
		kept = append(kept, c)
	}
	return kept
}

// cost is the tokens kept take in the package: their lines and a header
// per group.
func cost(kept []*candidate) int {
	n := 0
	groups := map[string]bool{}
	for _, c := range kept {
		n += c.tokens
		if !groups[c.group] {
			groups[c.group] = true
			n += Tokens(groupHeader(c, c)) + 1
		}
	}
	return n
}

// repeats reports whether c says what one of kept says.
func repeats(c *candidate, kept []*candidate) bool {
	if len(c.terms) < 4 {
		return false
	}
	for _, k := range kept {
		if jaccard(c.terms, k.terms) >= redundant {
			return true
		}
	}
	return false
}

func (pkg *Package) drop(c *candidate, reason string) {
	pkg.Dropped = append(pkg.Dropped, Dropped{ID: c.hit.ID, Rank: c.rank, Score: c.hit.Score, Reason: reason, Lane: c.lane})
}

// compress keeps the sentences of text that hold a query term, merged
// where they touch; a short text, or one whose sentences hold none (a hit
// by meaning), is kept whole or by its first sentence.
func compress(text string, query map[string]bool) []Range {
	sents := Sentences(text)
	if len(sents) == 0 {
		return nil
	}
	whole := []Range{{sents[0].Start, sents[len(sents)-1].End}}
	if len(sents) == 1 || len(text) <= wholeBytes {
		return whole
	}
	var keep []Range
	for _, s := range sents {
		for _, w := range textnorm.Words(text[s.Start:s.End]) {
			if query[bm25.Stem(w)] {
				keep = append(keep, s)
				break
			}
		}
	}
	if len(keep) == 0 {
		keep = sents[:1]
	}
	return merge(text, keep)
}

// merge joins ranges separated by white space only.
func merge(text string, rs []Range) []Range {
	out := []Range{rs[0]}
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if strings.TrimSpace(text[last.End:r.Start]) == "" {
			last.End = r.End
		} else {
			out = append(out, r)
		}
	}
	return out
}

// joinSpans is how a memory's spans read in the package: in order, an
// ellipsis where text was cut.
func joinSpans(text string, spans []Range) string {
	parts := make([]string, len(spans))
	for i, s := range spans {
		parts[i] = text[s.Start:s.End]
	}
	return strings.Join(parts, " … ")
}

// stems is the set of the stemmed content terms of s.
func stems(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range textnorm.Terms(s) {
		out[bm25.Stem(t)] = true
	}
	return out
}

func termSet(s string) map[string]bool { return stems(s) }

func jaccard(a, b map[string]bool) float64 {
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	if u := len(a) + len(b) - n; u > 0 {
		return float64(n) / float64(u)
	}
	return 0
}

// compression is the kept spans' share of their records' full texts, in
// tokens.
func compression(kept []*candidate) float64 {
	full, part := 0, 0
	for _, c := range kept {
		t := c.tokens - lineOverhead
		part += t
		if len(c.spans) == 1 && c.spans[0].Start == 0 && c.spans[0].End == len(c.hit.Record.Text) {
			full += t
		} else {
			full += Tokens(c.hit.Record.Text)
		}
	}
	if full == 0 {
		return 1
	}
	return math.Round(float64(part)/float64(full)*1000) / 1000
}

func stageTimer(pkg *Package) func(string) {
	last := time.Now()
	return func(name string) {
		now := time.Now()
		pkg.Stages = append(pkg.Stages, Stage{Name: name, MS: ms(now.Sub(last))})
		last = now
	}
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())) / 1000 }
