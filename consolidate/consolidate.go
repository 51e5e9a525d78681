// Package consolidate turns a window of episodic memories into one semantic
// summary record that links back to every source (derived_from). It is the
// use case every surface calls: `mneme summarize`, the MCP tool summarize
// and POST /v1/summarize only decode, call Summarize and encode.
//
// A summary is extractive by default (turns copied from the sources, with
// their dates: deterministic, no model but the one that embeds the summary
// record) or
// abstractive (written by the configured language model). Summarizing is
// idempotent: the same sources under the same request give back the stored
// summary, whatever the window's literal bounds (7d to now moves each
// second); a summary of the same filters that covers an older one's
// sources and more supersedes it, through the older one's record key (a
// key per project, filters and source set).
package consolidate

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/jobs"
)

// Strategy says who writes the summary.
type Strategy string

const (
	Auto        Strategy = "auto"        // abstractive when a language model answers, else extractive
	Extractive  Strategy = "extractive"  // the sources' most informative turns, in time order
	Abstractive Strategy = "abstractive" // the configured language model
)

// Defaults and bounds.
const (
	DefaultMaxWords = 250
	MaxMaxWords     = 2000
	DefaultLimit    = 50
	MaxLimit        = mneme.MaxK
)

// Request is a summarize call as every surface sends it.
type Request struct {
	Project  string   `json:"project,omitempty"`
	Since    string   `json:"since,omitempty"`   // RFC 3339, a date, an age like 7d, or now (or time_range.start)
	Until    string   `json:"until,omitempty"`   // or time_range.end
	Tags     []string `json:"tags,omitempty"`    // any of
	Kinds    []string `json:"kinds,omitempty"`   // any of
	Session  string   `json:"session,omitempty"` // only this session's records (a session's summary)
	Strategy Strategy `json:"strategy,omitempty"`
	MaxWords MaxWords `json:"max_words,omitempty"`
	Limit    Limit    `json:"limit,omitempty"`
	// TimeRange is the window as recall's time_range: start and end are
	// since and until (give either form, or both alike).
	TimeRange *TimeRange `json:"time_range,omitempty"`
	// Type is the memory type summarized: episodic (the default),
	// semantic or procedural (summaries themselves are left out).
	Type mneme.Type `json:"type,omitempty"`
	// Provider and Model choose the language model of an abstractive
	// summary for this call, among those the configuration allows (its
	// llm.provider; llm.model and llm.models); others are refused.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

// TimeRange is a window as recall takes it.
type TimeRange struct {
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
}

// Response is what Summarize did.
type Response struct {
	RecordID  string   `json:"record_id"`
	Summary   string   `json:"summary"`
	Words     int      `json:"words"`
	SourceIDs []string `json:"source_ids"`          // oldest first
	CitedIDs  []string `json:"cited_ids,omitempty"` // extractive: the sources the summary quotes
	Strategy  Strategy `json:"strategy"`            // the one that ran
	// FallbackReason says why auto ran extractive: no language model is
	// configured, or it did not answer.
	FallbackReason string `json:"fallback_reason,omitempty"`
	Provider       string `json:"provider,omitempty"` // abstractive
	Model          string `json:"model,omitempty"`
	PromptVersion  string `json:"prompt_version,omitempty"`
	// Created is false when the same summary of the same sources was
	// already stored: nothing was written.
	Created    bool   `json:"created"`
	Supersedes string `json:"supersedes,omitempty"` // the summary of the window this one replaced
	// Truncated says the window held more than limit records: the oldest
	// limit were summarized; summarize again from the last one's time.
	Truncated   bool        `json:"truncated,omitempty"`
	UsedFilters UsedFilters `json:"used_filters"`
}

// UsedFilters is the selection as it ran: the project resolved, times in
// RFC 3339, defaults filled in.
type UsedFilters struct {
	Project  string   `json:"project"`
	Since    string   `json:"since"`
	Until    string   `json:"until"`
	Types    []string `json:"types"`
	Tags     []string `json:"tags,omitempty"`
	Kinds    []string `json:"kinds,omitempty"`
	Session  string   `json:"session,omitempty"`
	Limit    int      `json:"limit"`
	MaxWords int      `json:"max_words"`
}

// Limit is how many records a summary covers at most: given, 1 to
// MaxLimit; left out (0), DefaultLimit. An explicit 0 is refused.
type Limit int

// MaxWords is the summary's length bound in words: given, 1 to
// MaxMaxWords; left out (0), DefaultMaxWords. An explicit 0 is refused.
type MaxWords int

func (l *Limit) UnmarshalJSON(b []byte) error {
	return positive(b, "limit", MaxLimit, DefaultLimit, (*int)(l))
}

func (m *MaxWords) UnmarshalJSON(b []byte) error {
	return positive(b, "max_words", MaxMaxWords, DefaultMaxWords, (*int)(m))
}

// positive decodes a bounded count, refusing 0 and numbers out of range.
func positive(b []byte, field string, max, def int, out *int) error {
	if string(b) == "null" {
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return mneme.Invalid("field %q must be a whole number from 1 to %d", field, max)
	}
	if err := CheckCount(field, n, max, def); err != nil {
		return err
	}
	*out = n
	return nil
}

// CheckCount refuses a count given explicitly out of 1..max (surfaces call
// it for flags; the JSON decoders call it too).
func CheckCount(field string, n, max, def int) error {
	if n < 1 || n > max {
		return mneme.Invalid("%s %d is out of range: use 1 to %d, or leave {{%s}} out for %d", field, n, max, field, def)
	}
	return nil
}

// window is a checked request.
type window struct {
	project      string
	since, until time.Time
	tags, kinds  []string
	session      string
	typ          mneme.Type
	provider     string // "": the configured one
	model        string // "": the configured one
	strategy     Strategy
	maxWords     int
	limit        int
}

// Check validates req as Summarize would, without a store: surfaces call
// it to reject bad input before they open one.
func (r Request) Check(now time.Time) error {
	_, err := validate(r, now)
	return err
}

// check validates req and resolves the project under the caller's scope.
func check(ctx context.Context, req Request, now time.Time) (window, error) {
	w, err := validate(req, now)
	if err != nil {
		return w, err
	}
	sc := mneme.ScopeFrom(ctx)
	if !sc.Write {
		return w, mneme.Errorf(mneme.EFORBIDDEN, "token %q is read-only and summarize writes a summary: use a token with access write", sc.Name)
	}
	if w.project, err = sc.Resolve(req.Project); err != nil {
		return w, err
	}
	if w.project == "" {
		w.project = mneme.DefaultProject
	}
	return w, mneme.ValidateProject(w.project)
}

// window takes time_range's start and end as since and until; the two
// forms may both be given only alike.
func (r *Request) window() error {
	if r.TimeRange == nil {
		return nil
	}
	for _, b := range []struct {
		name, alias string
		to          *string
		from        string
	}{{"since", "time_range.start", &r.Since, r.TimeRange.Start}, {"until", "time_range.end", &r.Until, r.TimeRange.End}} {
		switch {
		case b.from == "":
		case *b.to != "" && *b.to != b.from:
			return mneme.Invalid("%s and %s are the same parameter with different values (%q, %q): give one", b.alias, b.name, mneme.Clip(b.from), mneme.Clip(*b.to))
		default:
			*b.to = b.from
		}
	}
	return nil
}

// validate checks req and fills in the defaults.
func validate(req Request, now time.Time) (window, error) {
	w := window{strategy: req.Strategy, maxWords: int(req.MaxWords), limit: int(req.Limit), kinds: slices.Clone(req.Kinds), session: req.Session,
		typ: cmp.Or(req.Type, mneme.Episodic), provider: strings.TrimSpace(req.Provider), model: strings.TrimSpace(req.Model)}
	if err := req.window(); err != nil {
		return w, err
	}
	if _, err := mneme.ParseType(string(w.typ)); err != nil {
		return w, err
	}
	if w.provider != "" || w.model != "" {
		switch w.strategy {
		case "":
			w.strategy = Abstractive // a model named is a model asked
		case Extractive:
			return w, mneme.Invalid("provider and model choose a language model, and strategy extractive uses none: leave {{strategy}} out, or set it to abstractive or auto")
		}
	}
	if strings.TrimSpace(req.Since) == "" || strings.TrimSpace(req.Until) == "" {
		return w, mneme.Invalid("summarize needs a window: give {{since}} and {{until}} (RFC 3339, a date, or an age like 7d)")
	}
	var err error
	if w.since, err = parseTime("since", req.Since, now); err != nil {
		return w, err
	}
	if w.until, err = parseTime("until", req.Until, now); err != nil {
		return w, err
	}
	if w.since.After(w.until) {
		return w, mneme.Invalid("the window is inverted: since (%s) is after until (%s); swap {{since}} and {{until}}", w.since.Format(time.RFC3339), w.until.Format(time.RFC3339))
	}
	if w.limit == 0 {
		w.limit = DefaultLimit
	}
	if w.maxWords == 0 {
		w.maxWords = DefaultMaxWords
	}
	if err := CheckCount("limit", w.limit, MaxLimit, DefaultLimit); err != nil {
		return w, err
	}
	if err := CheckCount("max_words", w.maxWords, MaxMaxWords, DefaultMaxWords); err != nil {
		return w, err
	}
	switch w.strategy {
	case "":
		w.strategy = Extractive
	case Auto, Extractive, Abstractive:
	default:
		return w, mneme.Invalid("strategy %q is not one of auto, extractive, abstractive: set {{strategy}}", mneme.Clip(string(w.strategy)))
	}
	if w.tags, err = mneme.NormalizeTags(req.Tags); err != nil {
		return w, err
	}
	slices.Sort(w.tags)
	slices.Sort(w.kinds)
	w.kinds = slices.Compact(w.kinds)
	if req.Project != "" {
		return w, mneme.ValidateProject(req.Project)
	}
	return w, nil
}

func parseTime(field, s string, now time.Time) (time.Time, error) {
	if strings.EqualFold(strings.TrimSpace(s), "now") {
		return now, nil
	}
	return mneme.ParseTime(field, s, now)
}

func (w window) filters() UsedFilters {
	return UsedFilters{Project: w.project, Since: w.since.Format(time.RFC3339Nano), Until: w.until.Format(time.RFC3339Nano),
		Types: []string{string(w.typ)}, Tags: w.tags, Kinds: w.kinds, Session: w.session, Limit: w.limit, MaxWords: w.maxWords}
}

// Summarize writes (or finds) the summary of req's window. Nothing is
// written when it fails, or when the same summary is already stored. A
// request that can run is recorded in the job ledger; one refused (bad
// input, no language model) is not.
func Summarize(ctx context.Context, eng *mneme.Engine, req Request) (*Response, error) {
	w, err := check(ctx, req, eng.Now())
	if err != nil {
		return nil, err
	}
	srcs, truncated, err := sources(ctx, eng, w)
	if err != nil {
		return nil, err
	}
	res := &Response{Truncated: truncated, UsedFilters: w.filters(), SourceIDs: ids(srcs)}
	writer, err := choose(ctx, eng, w, res)
	if err != nil {
		return nil, err
	}
	return jobs.Track(ctx, eng, jobs.KindSummarize, w.project, func(ctx context.Context) (*Response, error) {
		return summarize(ctx, eng, w, srcs, res, writer)
	}, func(res *Response) (map[string]int, string) {
		if res == nil {
			return nil, ""
		}
		created := 0
		if res.Created {
			created = 1
		}
		return map[string]int{"sources": len(res.SourceIDs), "words": res.Words, "created": created}, ""
	})
}

// summarize writes (or finds) the summary of srcs with writer (nil:
// extractively); auto falls back to extractive when the model fails.
func summarize(ctx context.Context, eng *mneme.Engine, w window, srcs []*mneme.Record, res *Response, writer Writer) (*Response, error) {
	out, err := summarizeWith(ctx, eng, w, srcs, res, writer)
	if err != nil && writer != nil && w.strategy == Auto && ctx.Err() == nil {
		// The model answered, but not a summary: auto writes the
		// extractive one, and says why.
		fallBack(res, err)
		return summarizeWith(ctx, eng, w, srcs, res, nil)
	}
	return out, err
}

// summarizeWith writes the summary of srcs with m (nil: extractively), or
// finds the same one stored.
func summarizeWith(ctx context.Context, eng *mneme.Engine, w window, srcs []*mneme.Record, res *Response, m Writer) (*Response, error) {
	fingerprint := w.fingerprint(res, srcs)
	old, err := continued(ctx, eng, w, srcs)
	if err != nil {
		return nil, err
	}
	if old != nil && metaOf(old).Fingerprint == fingerprint {
		return res.from(old), nil
	}
	key := w.key(srcs)
	if old != nil {
		key = old.Key // the same sources or more: the new summary supersedes it
	}
	text, cited, err := write(ctx, m, w, srcs)
	if err != nil {
		return nil, err
	}
	rec := w.record(key, text, srcs, res.Strategy, metaFor(res, fingerprint, cited))
	// ExactLinks: were the text already stored (a capped window whose
	// sources changed but not the turns it quotes), its links become these
	// sources rather than gaining them.
	wr, err := eng.Remember(ctx, []*mneme.Record{rec}, mneme.WriteOptions{Redact: true, ExactLinks: true})
	if err != nil {
		return nil, err
	}
	res.RecordID = cmp.Or(wr.ID, rec.ID)
	// The response shows the summary as stored: with any credential the
	// model wrote masked, never as the model wrote it.
	stored, err := eng.Get(ctx, res.RecordID, mneme.Internal)
	if err != nil {
		return nil, err
	}
	text = body(stored)
	res.Summary, res.Words, res.CitedIDs = text, len(strings.Fields(text)), cited
	res.Created = wr.Inserted+wr.Updated > 0
	if old != nil && old.ID != res.RecordID {
		res.Supersedes = old.ID
	}
	return res, nil
}

// sources are the window's episodic records, oldest first, at most limit
// of them; secret records never go into a summary.
func sources(ctx context.Context, eng *mneme.Engine, w window) ([]*mneme.Record, bool, error) {
	f := mneme.Filter{Project: w.project, Types: []mneme.Type{w.typ}, Kinds: w.kinds, Tags: w.tags, SessionID: w.session,
		Since: &w.since, Until: &w.until, Clearance: mneme.Internal}
	var out []*mneme.Record
	err := eng.Each(ctx, f, func(r *mneme.Record) error {
		if r.Kind != "summary" { // a summary of summaries would say everything twice
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if len(out) == 0 {
		return nil, false, mneme.Invalid("nothing to summarize: project %q has no %s records between %s and %s%s; widen the window ({{since}}, {{until}}) or check {{project}}",
			w.project, w.typ, w.since.Format(time.RFC3339), w.until.Format(time.RFC3339), w.filterNote())
	}
	slices.SortFunc(out, func(a, b *mneme.Record) int {
		if c := a.EventTime().Compare(b.EventTime()); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(out) > w.limit {
		return out[:w.limit], true, nil
	}
	return out, false, nil
}

func (w window) filterNote() string {
	var parts []string
	if len(w.tags) > 0 {
		parts = append(parts, "tags "+strings.Join(w.tags, ", "))
	}
	if w.session != "" {
		parts = append(parts, "session "+w.session)
	}
	if len(w.kinds) > 0 {
		parts = append(parts, "kinds "+strings.Join(w.kinds, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " with " + strings.Join(parts, " and ") + " (any of)"
}

func ids(recs []*mneme.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// key is the record key of a summary of srcs: one per (project, filters,
// source set), so summarizing the same sources again, over a window that
// moved (--since 7d --until now) or with another strategy, keeps one
// active summary of them. A summary that covers an older one's sources and
// more takes the older one's key instead (see continued).
func (w window) key(srcs []*mneme.Record) string {
	return "summary:" + hash(w.project, strings.Join(w.tags, ","), strings.Join(w.kinds, ",")+w.session,
		strings.Join(slices.Sorted(slices.Values(ids(srcs))), ","))[:32]
}

// fingerprint is the idempotency key: the project, the filters, what
// writes the summary and how long, and the sorted source ids (not the
// window's literal bounds). The same fingerprint means the stored summary
// is still the right one.
func (w window) fingerprint(res *Response, srcs []*mneme.Record) string {
	return hash(w.key(srcs), fmt.Sprint(w.limit, " ", w.maxWords), string(res.Strategy), res.Provider, res.Model, res.PromptVersion,
		extractiveVersion)
}

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// continued is the active summary that a summary of srcs continues: of the
// same project and filters, made from the same sources or from some of
// them (the window has grown since), the one with the most; nil if none.
func continued(ctx context.Context, eng *mneme.Engine, w window, srcs []*mneme.Record) (*mneme.Record, error) {
	have := make(map[string]bool, len(srcs))
	for _, s := range srcs {
		have[s.ID] = true
	}
	// A session's summary is stored under its session: the session index
	// finds it among the project's records (a hook ends every session
	// with one, in homes of 100,000 records).
	f := mneme.Filter{Project: w.project, Types: []mneme.Type{mneme.Semantic}, Kinds: []string{"summary"}, SessionID: w.session, Clearance: mneme.Internal}
	var best *mneme.Record
	bestN := 0
	err := eng.Each(ctx, f, func(r *mneme.Record) error {
		m := metaOf(r)
		if !strings.HasPrefix(r.Key, "summary:") || m.Filters.Project != w.project ||
			!slices.Equal(m.Filters.Tags, w.tags) || !slices.Equal(m.Filters.Kinds, w.kinds) || m.Filters.Session != w.session ||
			!slices.Equal(m.Filters.Types, []string{string(w.typ)}) {
			return nil
		}
		n := 0
		for _, l := range r.Links {
			if l.Type != mneme.LinkDerivedFrom {
				continue
			}
			if !have[l.Target] {
				return nil
			}
			n++
		}
		if n > bestN {
			best, bestN = r, n
		}
		return nil
	})
	return best, err
}

// record builds the summary record.
func (w window) record(key, text string, srcs []*mneme.Record, strategy Strategy, meta json.RawMessage) *mneme.Record {
	last := srcs[len(srcs)-1].EventTime()
	links := make([]mneme.Link, len(srcs))
	for i, s := range srcs {
		links[i] = mneme.Link{Type: mneme.LinkDerivedFrom, Target: s.ID}
	}
	prov := mneme.Cited // quoted from the sources
	if strategy == Abstractive {
		prov = mneme.Assumed // written by a model
	}
	return &mneme.Record{Project: w.project, Type: mneme.Semantic, Kind: "summary", Tags: []string{"summary"}, Key: key,
		Title: fmt.Sprintf("Summary of %s, %s to %s", w.project, day(w.since), day(w.until)), Text: w.header(len(srcs)) + "\n" + text,
		OccurredAt: &last, Provenance: prov, Links: links, Meta: meta, SessionID: w.session}
}

// header is the record text's first line: what the summary covers. It
// also keeps summaries of different windows or filters from sharing a
// content hash (which would merge them into one record).
func (w window) header(n int) string {
	what := "records"
	if n == 1 {
		what = "record"
	}
	return fmt.Sprintf("Summary of %d episodic %s in %s from %s to %s%s:", n, what, w.project,
		w.since.Format(time.RFC3339), w.until.Format(time.RFC3339), w.filterNote())
}

// body is a stored summary's text without its header.
func body(r *mneme.Record) string {
	if _, rest, ok := strings.Cut(r.Text, "\n"); ok && strings.HasPrefix(r.Text, "Summary of ") {
		return rest
	}
	return r.Text
}

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }
