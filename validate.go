package mneme

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/internal/textnorm"
)

// Limits on record fields.
const (
	MaxTextBytes  = 1 << 20 // larger documents go through ingest, which chunks them
	MaxTitleBytes = 1024
	MaxTags       = 64
	MaxTagBytes   = 64
	MaxFieldBytes = 256 // kind, key, session, run, speaker, source uri
	MaxMetaBytes  = 64 << 10
)

var (
	projectPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	types          = []Type{Episodic, Semantic, Procedural}
	statuses       = []Status{Active, Superseded, Draft, Validated, Published}
	provenances    = []Provenance{Verified, Cited, Assumed, Cached}
	sensitivities  = []Sensitivity{Public, Internal, Secret}
	linkTypes      = []string{LinkDerivedFrom, LinkSupersedes, LinkRelatesTo, LinkFollows}
)

// ValidateProject checks a project name.
func ValidateProject(p string) error {
	if !projectPattern.MatchString(p) {
		return Invalid("project %q is not a valid name: use 1 to 64 characters from a-z, 0-9, '.', '_' and '-', starting with a letter or digit", Clip(p))
	}
	return nil
}

// ParseType, ParseStatus, ParseProvenance and ParseSensitivity check an enum
// value and say which values are allowed.
func ParseType(s string) (Type, error)             { return parseEnum("type", s, types) }
func ParseStatus(s string) (Status, error)         { return parseEnum("status", s, statuses) }
func ParseProvenance(s string) (Provenance, error) { return parseEnum("provenance", s, provenances) }
func ParseSensitivity(s string) (Sensitivity, error) {
	return parseEnum("sensitivity", s, sensitivities)
}

func parseEnum[T ~string](field, s string, allowed []T) (T, error) {
	if slices.Contains(allowed, T(s)) {
		return T(s), nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return "", Invalid("%s %q is not valid: use one of %s", field, Clip(s), strings.Join(names, ", "))
}

// NormalizeTags trims, lowercases, de-duplicates and sorts tags (a set), and
// rejects tags that cannot round-trip through a comma list.
func NormalizeTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		switch {
		case t == "":
			continue
		case len(t) > MaxTagBytes:
			return nil, Invalid("tag %.20q… is longer than %d bytes: shorten it", t, MaxTagBytes)
		case !utf8.ValidString(t) || strings.ContainsFunc(t, func(r rune) bool { return r == ',' || unicode.IsControl(r) }):
			return nil, Invalid("tag %q contains a comma, a control character or invalid UTF-8: tags are single labels", Clip(t))
		case !slices.Contains(out, t):
			out = append(out, t)
		}
	}
	if len(out) > MaxTags {
		return nil, Invalid("%d tags is more than the limit of %d: keep the tags that matter for filtering", len(out), MaxTags)
	}
	slices.Sort(out)
	return out, nil
}

// Prepare fills defaults, normalises r in place (UTC times, tags, content
// hash) and validates every field. It does not set the id or server times.
func Prepare(r *Record) error {
	if r.Project == "" {
		r.Project = DefaultProject
	}
	if r.Type == "" {
		r.Type = Semantic
	}
	if r.Status == "" {
		r.Status = Active
	}
	if r.Sensitivity == "" {
		r.Sensitivity = Internal
	}
	tags, err := NormalizeTags(r.Tags)
	if err != nil {
		return err
	}
	r.Tags = tags
	for _, t := range []*time.Time{r.OccurredAt, r.ExpiresAt, &r.CreatedAt, &r.UpdatedAt} {
		if t != nil {
			*t = t.UTC()
		}
	}
	if err := validate(r); err != nil {
		return err
	}
	hash := textnorm.Hash(r.Text)
	if r.ContentHash != "" && r.ContentHash != hash {
		return Invalid("content_hash does not match the text: leave content_hash out and it is computed")
	}
	r.ContentHash = hash
	return nil
}

func validate(r *Record) error {
	if err := ValidateText(r.Text); err != nil {
		return err
	}
	if r.ID != "" && !ValidID(r.ID) {
		return Invalid("id %q is not a UUID: leave it out and one is assigned", Clip(r.ID))
	}
	if err := ValidateProject(r.Project); err != nil {
		return err
	}
	if _, err := ParseType(string(r.Type)); err != nil {
		return err
	}
	if _, err := ParseStatus(string(r.Status)); err != nil {
		return err
	}
	if r.Provenance != "" {
		if _, err := ParseProvenance(string(r.Provenance)); err != nil {
			return err
		}
	}
	if _, err := ParseSensitivity(string(r.Sensitivity)); err != nil {
		return err
	}
	if err := checkField("title", r.Title, MaxTitleBytes); err != nil {
		return err
	}
	for name, v := range map[string]string{"kind": r.Kind, "key": r.Key, "session_id": r.SessionID, "run_id": r.RunID, "speaker": r.Speaker} {
		if err := checkField(name, v, MaxFieldBytes); err != nil {
			return err
		}
	}
	if err := validateSource(r.Source); err != nil {
		return err
	}
	if err := checkTimes(r); err != nil {
		return err
	}
	for _, l := range r.Links {
		if !slices.Contains(linkTypes, l.Type) {
			return Invalid("link type %q is not valid: use one of %s", Clip(l.Type), strings.Join(linkTypes, ", "))
		}
		if !ValidID(l.Target) {
			return Invalid("link target %q is not a record id", Clip(l.Target))
		}
	}
	if err := validatePromotions(r.Promotions); err != nil {
		return err
	}
	return validateMeta(r)
}

// ValidateText checks the text of a record.
func ValidateText(text string) error {
	switch {
	case !utf8.ValidString(text):
		return Invalid("text is not valid UTF-8: convert it to UTF-8 first")
	case strings.TrimSpace(text) == "":
		return Invalid("text is empty: give the memory some text")
	case len(text) > MaxTextBytes:
		return Invalid("text is %s; the limit for one record is %s: split it, or use `mneme ingest`, which chunks documents", FormatSize(int64(len(text))), FormatSize(MaxTextBytes))
	}
	return nil
}

func checkField(name, v string, max int) error {
	switch {
	case len(v) > max:
		return Invalid("%s is %d bytes, over the limit of %d", name, len(v), max)
	case !utf8.ValidString(v):
		return Invalid("%s is not valid UTF-8", name)
	case name != "title" && strings.ContainsFunc(v, unicode.IsControl):
		return Invalid("%s contains a control character", name)
	}
	return nil
}

func validateSource(s *Source) error {
	if s == nil {
		return nil
	}
	if err := checkField("source uri", s.URI, 4*MaxFieldBytes); err != nil {
		return err
	}
	if s.LineStart < 0 || s.LineEnd < 0 || s.Chunk < 0 || (s.LineEnd > 0 && s.LineEnd < s.LineStart) {
		return Invalid("source lines %d-%d or chunk %d are impossible: lines count from 1 and end at or after start", s.LineStart, s.LineEnd, s.Chunk)
	}
	if s.Parent != "" && !ValidID(s.Parent) {
		return Invalid("source parent %q is not a document id", Clip(s.Parent))
	}
	return nil
}

func validateMeta(r *Record) error {
	if len(r.Meta) == 0 || string(r.Meta) == "null" {
		r.Meta = nil
		return nil
	}
	if len(r.Meta) > MaxMetaBytes {
		return Invalid("meta is %d bytes, over the limit of %d", len(r.Meta), MaxMetaBytes)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, r.Meta) != nil || !metaObject(buf.Bytes()) {
		return Invalid("meta must be a JSON object, like {\"ticket\":\"ENG-12\"}")
	}
	if k, ok := duplicateKey(buf.Bytes()); ok {
		return Invalid("meta has the key %q twice: give each key once (filters match one value per key)", Clip(k))
	}
	r.Meta = buf.Bytes()
	return nil
}

// MetaFromPairs builds a meta object from k=v strings.
func MetaFromPairs(pairs []string) (json.RawMessage, error) {
	if len(pairs) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, Invalid("meta %q is not key=value: write it like --meta ticket=ENG-12", Clip(p))
		}
		m[strings.TrimSpace(k)] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, Invalid("meta: %v", err)
	}
	return b, nil
}
