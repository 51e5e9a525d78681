package rank

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Fusion chooses how hybrid recall combines its two lanes.
type Fusion string

const (
	// Weighted adds the lanes' scores, each normalised to 0..1:
	// alpha·lexical + (1−alpha)·vector.
	Weighted Fusion = "weighted"
	// RRF adds 1/(k+rank) over the lanes (reciprocal rank fusion), scaled
	// so a record first in both lanes scores 1.
	RRF Fusion = "rrf"
)

// Profile holds every tunable of ranking. Start from Default: a profile
// read from JSON (config.json) starts from it too, so it names only what
// it changes. The defaults were chosen with `mneme bench` on LoCoMo dev
// and NFCorpus train and dev (docs/performance.md, "Choosing the fusion" and the
// sections named below).
type Profile struct {
	// Fusion: weighted (default) or rrf. On LoCoMo and NFCorpus weighted
	// beats RRF by 0.1 R@10 and 0.03 nDCG@10.
	Fusion Fusion `json:"fusion"`
	// Alpha is the weight of the lexical lane in weighted fusion (0.35:
	// LoCoMo, NFCorpus train and dev each within 0.002 of its best).
	Alpha float64 `json:"alpha"`
	// RRFK is the k of reciprocal rank fusion (60).
	RRFK int `json:"rrf_k"`
	// MatchFloor is the cosine similarity from which a record's meaning
	// alone is evidence that it answers the query (0.2, docs/performance.md "Nothing is
	// no answer"). Below it a record none of the query's terms found is
	// held back, and under RRF its vector rank counts for nothing.
	MatchFloor float64 `json:"match_floor"`

	// SpeakerBoost is added to a record whose speaker the query names
	// (0.15, docs/performance.md "Speaker match"): a question about a participant is
	// mostly answered by what she said, but both lanes match every turn
	// that merely addresses her as well. 0.1 until FirstPerson: with the
	// name out of the vector lane's query, the speaker match carries who
	// is asked about alone, and LoCoMo dev gives 0.8191 for 0.1, 0.8243
	// for 0.15 (docs/performance.md "LoCoMo dev, session 36").
	SpeakerBoost float64 `json:"speaker_boost"`
	// FirstPerson asks the vector lane the question as the speaker it
	// names would (true): "What instruments does Melanie play?" is
	// embedded as "What instruments do I play?" when Melanie speaks in a
	// record the recall may read (see FirstPerson, NameCandidates). The
	// turns are embedded as "Melanie: …", so the name in the query's vector
	// pulls every turn that merely addresses her. The lexical lane and the
	// speaker match read the question as asked. LoCoMo dev R@10 0.8148 →
	// 0.8243 with SpeakerBoost 0.15; every fold leaving one conversation
	// out chooses it.
	FirstPerson bool `json:"first_person"`
	// SessionBoost: a record gains this share of the best fused score of
	// another candidate of its session (0.3): a conversation dwells on a
	// topic, so the answer often sits beside the turn that matches best.
	SessionBoost float64 `json:"session_boost"`
	// SeveralSessionBoost is SessionBoost for a question that asks for
	// several things ("what activities…", "how many times…", see
	// AsksSeveral): 0.1. Such an answer is gathered across sessions, and
	// raising the turns beside the best match fills the top with one
	// session (LoCoMo dev multi-hop R@10 0.494 → 0.505, no category and
	// no conversation lower). Leaving one conversation out, 0.05 is chosen
	// on every fold, and no conversation is lower for it than for 0.3;
	// 0.1 is taken, as 0.05 lowers open-domain (0.507 → 0.496).
	SeveralSessionBoost float64 `json:"several_session_boost"`
	// DateBoost is added to a record whose event time falls in the time
	// the query names (0.25): such a question is answered by what happened
	// then, and its other words say little. 0.2 until the deeper search
	// for a time named (now WindowPool's); with it, LoCoMo dev 0.2, 0.25, 0.3 give R@10 0.813, 0.815,
	// 0.814; leaving one conversation out, every fold chooses 0.25 (one
	// ties it with 0.3), and no conversation is lower than with 0.2.
	DateBoost float64 `json:"date_boost"`
	// DateBeforeHours and DateAfterDays widen a named time (default 0:
	// the time named, no other). What happened is told in the days that
	// follow ("last Friday"); DateMentions finds those turns by what they
	// say instead (LoCoMo dev: the 14 days after it had gave categories 2
	// and 4 0.888 and 0.908; the day named with mentions 0.888, 0.910).
	DateBeforeHours float64 `json:"date_before_hours"`
	DateAfterDays   float64 `json:"date_after_days"`
	// WindowPool is how many candidates each lane returns in a second
	// search, restricted to the time a question names (see Window), whose
	// candidates join the pool before fusion: the turn that answers "what
	// did Nate do on 25 May, 2022?" ranks far down both lanes over a whole
	// home, but near the top among that day's records. 0: no such search.
	// 50: LoCoMo dev R@10 0.8135, 0.8148, 0.8148, 0.8148, 0.8148 for 10,
	// 25, 50, 100, 200, the last four what each lane's first 300 over the
	// whole conversation gave for such questions (the time_pool of stop 34,
	// which it replaces), on every conversation alike; 50 leaves room for
	// a busier day than LoCoMo's (a session of 20–30 turns).
	WindowPool int `json:"window_pool"`
	// WindowAfterDays extends the window search this many days past the
	// time named, where turns tell of it after the fact ("yesterday",
	// "last week"; DateMentions raises them): 0. LoCoMo dev gives 0.8148
	// for 0, 1, 3, 7 and 14 days, 0.8144 for 31.
	WindowAfterDays float64 `json:"window_after_days"`
	// WhenBoost is added, for a question that asks when, to a record whose
	// text tells a time ("yesterday", "last May"): 0.1, chosen leaving one
	// LoCoMo dev conversation out at a time (0.12 best on four of five
	// folds, 0.08 on one; temporal R@10 of the weakest fold 0.725 → 0.775).
	WhenBoost float64 `json:"when_boost"`
	// RecentBoost is added, for a question that asks for the latest, to
	// the newest candidate, and its share by place in time to the others
	// (0.1; LoCoMo dev unchanged).
	RecentBoost float64 `json:"recent_boost"`
	// PreferBoost is added, for a question that asks for advice or a
	// recommendation, to a record that states a preference ("I'm
	// vegetarian"): 0.1. With UpdateBoost, the evidence of the test set of
	// TestPreferencesAndUpdates ranks first for 4 of 10 questions (2
	// without them); 0.2 gave 5 (0.35: 6) but lowered LoCoMo dev
	// categories 1 and 4 below their figures before it.
	PreferBoost float64 `json:"prefer_boost"`
	// UpdateBoost is added to the newer of two candidates whose terms
	// overlap by UpdateOverlap (Jaccard) at least, for a question about
	// the asker or the latest: the newer statement of a fact holds (0.1
	// and 0.3: LoCoMo dev unchanged; 0.15 and 0.15 put every update of
	// TestPreferencesAndUpdates first but lowered LoCoMo's temporal R@10).
	UpdateBoost   float64 `json:"update_boost"`
	UpdateOverlap float64 `json:"update_overlap"`
	// DateMentions also raises a record whose text names a time in the
	// one the query names, resolved against when it was said.
	DateMentions bool `json:"date_mentions"`
	// ShortTurnPenalty is taken from a conversation turn for each halving
	// of its length below FullTurnWords, at most twice (0.04, docs/performance.md
	// "Short turns"): a turn of a few words rarely holds what a question
	// asks, yet both lanes match it as well as the longer turns that do.
	ShortTurnPenalty float64 `json:"short_turn_penalty"`
	// FullTurnWords is the length (words of title and text) from which a
	// turn loses nothing (80).
	FullTurnWords int `json:"full_turn_words"`

	// Reranker weights: coverage and phrases refine word matching; recency
	// and type break near-ties. Their sum (0.5) keeps a strong fused lead
	// intact. Defaults 0.15, 0.2, 0.05, 0.1.
	RerankPhrase   float64 `json:"rerank_phrase"`
	RerankCoverage float64 `json:"rerank_coverage"`
	RerankRecency  float64 `json:"rerank_recency"`
	RerankType     float64 `json:"rerank_type"`

	// Pseudo-relevance feedback (RM3-like), docs/performance.md "Lexical scoring and
	// feedback": NFCorpus train and dev gain 0.01 nDCG@10; on LoCoMo's
	// chat turns it lost recall at every setting, so it needs hits of
	// FeedbackMinWords.
	FeedbackHits     int `json:"feedback_hits"`      // the best first-round hits that lend their words (3)
	FeedbackWords    int `json:"feedback_words"`     // words added at most (13; 10 until stop 34: NFCorpus train 0.3666 → 0.3670, dev 0.3450 → 0.3457, LoCoMo unchanged)
	FeedbackWeight   int `json:"feedback_weight"`    // each query term counts this many times against one added word (4)
	FeedbackMinWords int `json:"feedback_min_words"` // a hit's text shorter than this tells its topic too poorly (80)
	FeedbackPool     int `json:"feedback_pool"`      // the best candidates a word's rarity is counted among (50)
	FeedbackMaxTerms int `json:"feedback_max_terms"` // a query of more terms searches once (13)
}

// Default is the profile every field of which is its default.
func Default() Profile {
	return Profile{
		Fusion: Weighted, Alpha: 0.35, RRFK: 60, MatchFloor: 0.2,
		SpeakerBoost: 0.15, FirstPerson: true, SessionBoost: 0.3, SeveralSessionBoost: 0.1, DateBoost: 0.25, DateMentions: true, WindowPool: 50, WhenBoost: 0.1, RecentBoost: 0.1,
		PreferBoost: 0.1, UpdateBoost: 0.1, UpdateOverlap: 0.3,
		ShortTurnPenalty: 0.04, FullTurnWords: 80,
		RerankPhrase: 0.15, RerankCoverage: 0.2, RerankRecency: 0.05, RerankType: 0.1,
		FeedbackHits: 3, FeedbackWords: 13, FeedbackWeight: 4, FeedbackMinWords: 80, FeedbackPool: 50, FeedbackMaxTerms: 13,
	}
}

// UnmarshalJSON reads a profile over the defaults: a field left out keeps
// its default, one given (0 too) replaces it. Unknown fields are errors,
// and so are values out of range.
func (p *Profile) UnmarshalJSON(b []byte) error {
	type plain Profile
	v := plain(Default())
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if r := retiredField(strings.Trim(name, `"`)); r != nil {
				return fmt.Errorf("ranking profile: %w", r)
			}
		}
		return fmt.Errorf("ranking profile: %w (fields: %s)", err, strings.Join(Fields(), ", "))
	}
	if err := Profile(v).Check(); err != nil {
		return fmt.Errorf("ranking profile: %w", err)
	}
	*p = Profile(v)
	return nil
}

// Check reports the first field of p out of its range, saying which and
// what range holds.
func (p Profile) Check() error {
	if p.Fusion != Weighted && p.Fusion != RRF {
		return fmt.Errorf("fusion %q is not one of weighted, rrf", p.Fusion)
	}
	v := reflect.ValueOf(p)
	for i := range v.NumField() {
		f, name := v.Field(i), jsonName(v.Type().Field(i))
		switch f.Kind() {
		case reflect.Float64:
			x, hi := f.Float(), 1.0
			if strings.HasSuffix(name, "_hours") || strings.HasSuffix(name, "_days") {
				hi = 3660 // hours or days: a decade of days at most
			}
			if math.IsNaN(x) || x < 0 || x > hi {
				return fmt.Errorf("%s %g is out of range: use 0 to %g", name, x, hi)
			}
		case reflect.Int:
			if x := f.Int(); x < 0 || x > 1000 {
				return fmt.Errorf("%s %d is out of range: use 0 to 1000", name, x)
			}
		}
	}
	return nil
}

// Fields lists the names of p's fields as config.json spells them.
func Fields() []string {
	t := reflect.TypeOf(Profile{})
	out := make([]string, t.NumField())
	for i := range out {
		out[i] = jsonName(t.Field(i))
	}
	sort.Strings(out)
	return out
}

// Set sets the field named as config.json spells it (like "date_boost") to
// value, parsed as the field's type; for `mneme bench --sweep`.
func (p *Profile) Set(name, value string) error {
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		if jsonName(v.Type().Field(i)) != name {
			continue
		}
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Float64:
			x, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return fmt.Errorf("%s takes a number, not %q", name, value)
			}
			f.SetFloat(x)
		case reflect.Int:
			x, err := strconv.Atoi(value)
			if err != nil {
				return fmt.Errorf("%s takes a whole number, not %q", name, value)
			}
			f.SetInt(int64(x))
		case reflect.Bool:
			x, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("%s takes true or false, not %q", name, value)
			}
			f.SetBool(x)
		default:
			f.SetString(value)
		}
		return p.Check()
	}
	if err := retiredField(name); err != nil {
		return err
	}
	return fmt.Errorf("%q is no ranking profile field: use one of %s", name, strings.Join(Fields(), ", "))
}

// retired names the fields a profile no longer has, and what took their
// place.
var retired = map[string]string{
	"time_pool": "the search restricted to the time a question names (window_pool) took its place",
}

// retiredField is the error for a field that was retired, saying what
// took its place; nil for any other name.
func retiredField(name string) error {
	if why, ok := retired[name]; ok {
		return fmt.Errorf("%s is retired: %s; remove it from the profile", name, why)
	}
	return nil
}

// String is p as JSON, for reports.
func (p Profile) String() string {
	b, _ := json.Marshal(p)
	return string(b)
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
