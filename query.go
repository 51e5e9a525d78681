package mneme

import (
	"slices"
	"time"
)

// Filter selects records. Zero values select everything visible.
type Filter struct {
	Project           string
	Types             []Type
	Kinds             []string
	Tags              []string
	AllTags           bool        // records must carry every tag, not any
	Meta              []MetaMatch // every one must hold (see MetaMatch)
	Since, Until      *time.Time  // bounds on the event time (occurred_at, else created_at), inclusive
	Before            *time.Time  // created before (forget)
	Key               string
	SessionID, RunID  string   // only records of this session, of this run (both given: both must hold)
	Statuses          []Status // any of; asking for superseded includes superseded records
	ContentHash       string   // only records with this text (List and Each: recall refuses it)
	Derived           bool     // only records with a derived_from link (List and Each: recall refuses it)
	Expired           bool     // only records whose TTL ran out at Now (List and Each, for prune)
	IncludeSuperseded bool
	IncludeExpired    bool
	Clearance         Sensitivity // secret records need Secret; "" means Internal
	Now               time.Time   // expiry reference; set by the Engine
}

// Check normalises and validates f.
func (f *Filter) Check() error {
	if f.Project != "" {
		if err := ValidateProject(f.Project); err != nil {
			return err
		}
	}
	for name, v := range map[string]string{"session": f.SessionID, "run": f.RunID} {
		if len(v) > MaxFieldBytes {
			return Invalid("%s is %d bytes; the limit is %d", name, len(v), MaxFieldBytes)
		}
	}
	for _, t := range f.Types {
		if _, err := ParseType(string(t)); err != nil {
			return err
		}
	}
	for _, st := range f.Statuses {
		if _, err := ParseStatus(string(st)); err != nil {
			return err
		}
	}
	f.Statuses = slices.Compact(slices.Sorted(slices.Values(f.Statuses)))
	if slices.Contains(f.Statuses, Superseded) {
		f.IncludeSuperseded = true
	}
	if f.Expired {
		f.IncludeExpired = true
	}
	tags, err := NormalizeTags(f.Tags)
	if err != nil {
		return err
	}
	f.Tags = tags
	if f.Meta, err = checkMetaMatches(f.Meta); err != nil {
		return err
	}
	if f.Clearance == "" {
		f.Clearance = Internal
	} else if _, err := ParseSensitivity(string(f.Clearance)); err != nil {
		return err
	}
	if f.Since != nil && f.Until != nil && f.Since.After(*f.Until) {
		return Invalid("since (%s) is after until (%s): swap them or widen the range", f.Since.Format(time.RFC3339), f.Until.Format(time.RFC3339))
	}
	f.Since, f.Until, f.Before = clampTime(f.Since), clampTime(f.Until), clampTime(f.Before)
	return nil
}

// Match reports whether r passes f. Stores filter inside their queries; this
// is the reference they are tested against.
func (f *Filter) Match(r *Record) bool {
	ev := r.EventTime()
	switch {
	case f.Project != "" && r.Project != f.Project,
		len(f.Types) > 0 && !slices.Contains(f.Types, r.Type),
		len(f.Kinds) > 0 && !slices.Contains(f.Kinds, r.Kind),
		f.Key != "" && r.Key != f.Key,
		f.SessionID != "" && r.SessionID != f.SessionID,
		f.RunID != "" && r.RunID != f.RunID,
		len(f.Statuses) > 0 && !slices.Contains(f.Statuses, r.Status),
		f.ContentHash != "" && r.ContentHash != f.ContentHash,
		f.Derived && !slices.ContainsFunc(r.Links, func(l Link) bool { return l.Type == LinkDerivedFrom }),
		f.Since != nil && ev.Before(*f.Since),
		f.Until != nil && ev.After(*f.Until),
		f.Before != nil && !r.CreatedAt.Before(*f.Before),
		!f.IncludeSuperseded && r.Status == Superseded,
		!f.IncludeExpired && r.Expired(f.Now),
		f.Expired && !r.Expired(f.Now),
		!r.Visible(f.Clearance),
		!matchMeta(f.Meta, r.Meta):
		return false
	}
	if len(f.Tags) == 0 {
		return true
	}
	n := 0
	for _, t := range f.Tags {
		if slices.Contains(r.Tags, t) {
			n++
		}
	}
	return n == len(f.Tags) || (!f.AllTags && n > 0)
}

// CandidateQuery asks a store for recall's candidates: the top K of each
// lane that runs (Terms: BM25 over title, text and tags; Vector: nearest
// stored vectors) among the records passing Filter.
type CandidateQuery struct {
	Terms  []string  // folded words, stopwords removed, repeats kept (query frequency); nil: no lexical lane
	Vector []float32 // from the home's embedder, unit length; nil: no vector lane
	// VectorLater, when set (Vector nil), is a vector being made while the
	// search starts (the query's embedding): it returns it once made, or
	// nil when it could not be, and then no vector lane runs. A store runs
	// what needs no vector meanwhile, and reads it with LaneVector.
	VectorLater func() []float32
	Filter      Filter
	K           int
	// Linked asks for the records the candidates link to as well (see
	// Candidates.Linked), for expansion and for hiding links, when the
	// store can read them in the same round trip. A store may ignore it.
	Linked bool
}

// WantsVector reports whether a vector lane may run: a vector is given or
// on its way.
func (q *CandidateQuery) WantsVector() bool { return q.Vector != nil || q.VectorLater != nil }

// LaneVector returns the query vector, waiting for it if it is on its way
// (nil: no vector lane). Not safe to call from two goroutines at once.
func (q *CandidateQuery) LaneVector() []float32 {
	if q.Vector == nil && q.VectorLater != nil {
		q.Vector, q.VectorLater = q.VectorLater(), nil
	}
	return q.Vector
}

// Candidates is what a candidate query found.
type Candidates struct {
	List []Candidate // in no particular order
	// Unembedded counts the records passing the filter that the vector
	// lane cannot see although they could have a vector: not secret, with
	// no vector from the home's embedder (written without an embedder, or
	// left behind by an interrupted reindex). Counted when the vector lane
	// runs (Vector set), else 0.
	Unembedded int
	// Linked holds the records the candidates' links point to, when the
	// query asked for them and the store read them (nil: not read; the
	// Engine reads what it needs). Unfiltered: visibility is the Engine's.
	Linked []*Record
}

// Candidate is a record with what each lane that ran says about it. Every
// candidate is scored by every lane, also the lane that did not rank it in
// its top K, so fusion compares like with like.
type Candidate struct {
	Record       *Record
	LexicalRank  int     // 1-based rank in the BM25 top K; 0: not in it
	BM25         float64 // raw BM25 (higher is better; 0: no query term)
	MatchedTerms []string
	VectorRank   int     // 1-based rank among the nearest K; 0: not in it
	Similarity   float64 // cosine similarity with the query vector
	// HasVector is false when the vector lane ran but the record has no
	// vector from the home's embedder (secret, or not embedded yet): its
	// Similarity of 0 is then no measurement.
	HasVector bool

	window bool // found by the window search alone (Engine.search)
}
