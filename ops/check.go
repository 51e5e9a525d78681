package ops

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/internal/relpath"
)

// Limits of a batch. A hook cuts a tool's input and output to
// MaxSummaryBytes before it writes them.
const (
	MaxEntries      = 1000
	MaxRequestBytes = 8 << 20  // a batch's JSON
	MaxSummaryBytes = 2048     // input, outcome
	MaxLongBytes    = 64 << 10 // a prompt, a session's summary
	maxMediumBytes  = 1024     // goal, path
)

// FieldError names the entry and field that made a batch invalid.
type FieldError struct {
	Index int    // the entry's index in the batch, from 0
	Field string // its JSON name
	Msg   string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("entries[%d].%s: %s", e.Index, e.Field, e.Msg)
}

// fieldErr is the invalid-input error of entry i's field: a
// mneme.BatchError (surfaces name the row) around a FieldError.
func fieldErr(i int, field, format string, args ...any) error {
	fe := &FieldError{Index: i, Field: field, Msg: fmt.Sprintf(format, args...)}
	return &mneme.Error{Code: mneme.EINVALID, Message: fe.Error() + "; nothing was written", Err: &mneme.BatchError{Index: i, Err: fe}}
}

// kindFields are the typed fields each kind takes, and which of them it
// needs (session and run are checked apart).
var kindFields = map[string]struct{ allowed, required []string }{
	KindSession:    {[]string{"host", "repo", "started_at", "ended_at", "summary"}, nil},
	KindRun:        {[]string{"goal", "status"}, nil},
	KindToolCall:   {[]string{"tool", "input", "outcome", "duration_ms", "success"}, []string{"tool"}},
	KindArtifact:   {[]string{"path", "sha256", "size", "artifact_kind"}, []string{"path"}},
	KindValidation: {[]string{"check", "status", "evidence_hash"}, []string{"check", "status"}},
	KindRoute:      {[]string{"route_kind", "choice", "reason"}, []string{"route_kind", "choice"}},
	KindPrompt:     {[]string{"text"}, []string{"text"}},
}

// common are the fields every kind takes.
var common = []string{"kind", "session", "run", "at"}

// entryFields maps each JSON name of Entry to its field index.
var entryFields = func() map[string]int {
	out := map[string]int{}
	t := reflect.TypeFor[Entry]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out[name] = i
	}
	return out
}()

// fieldLimit is the byte limit of a string field.
func fieldLimit(name string) int {
	switch name {
	case "input", "outcome":
		return MaxSummaryBytes
	case "summary", "text":
		return MaxLongBytes
	case "goal", "path":
		return maxMediumBytes
	}
	return mneme.MaxFieldBytes
}

// freeText are the fields that hold prose, where a home path is refused
// but spaces and newlines are fine.
var freeText = []string{"input", "outcome", "summary", "text", "goal"}

var (
	hexSHA256  = regexp.MustCompile(`^(sha256:)?[0-9a-f]{64}$`)
	reasonCode = regexp.MustCompile(`^[a-z0-9][a-z0-9_.:-]*$`)
)

// Check validates b and applies its defaults (a session's host), masking
// credentials when b.Redact is set: every rule a write applies before it
// touches a store, so a surface may call it to refuse bad input early.
func Check(b *Batch) error {
	switch {
	case len(b.Entries) == 0:
		return mneme.Invalid("entries is empty: send at least one entry")
	case len(b.Entries) > MaxEntries:
		return mneme.Invalid("%d entries, over the limit of %d per batch: split the batch", len(b.Entries), MaxEntries)
	}
	if b.Project != "" {
		if err := mneme.ValidateProject(b.Project); err != nil {
			return err
		}
	}
	seen := map[string]int{}
	for i := range b.Entries {
		e := &b.Entries[i]
		if err := checkEntry(i, e, b.Redact); err != nil {
			return err
		}
		id := ""
		switch e.Kind {
		case KindSession:
			id = "session " + e.Session
		case KindRun:
			id = "run " + e.Run
		}
		if j, dup := seen[id]; dup && id != "" {
			field := strings.Fields(id)[0]
			return fieldErr(i, field, "%s is already entries[%d]: one row per session or run in a batch", id, j)
		}
		seen[id] = i
	}
	return nil
}

// checkEntry validates entry i.
func checkEntry(i int, e *Entry, redact bool) error {
	spec, ok := kindFields[e.Kind]
	if !ok {
		return fieldErr(i, "kind", "%q is not a kind: use one of %s", mneme.Clip(e.Kind), strings.Join(Kinds, ", "))
	}
	v := reflect.ValueOf(e).Elem()
	for name, idx := range entryFields {
		f := v.Field(idx)
		if f.IsZero() {
			continue
		}
		if !slices.Contains(common, name) && !slices.Contains(spec.allowed, name) {
			return fieldErr(i, name, "not a field of a %s entry, which takes %s", e.Kind, strings.Join(append(slices.Clone(common), spec.allowed...), ", "))
		}
		if f.Kind() == reflect.String {
			s := f.String()
			if err := checkString(name, &s, redact); err != nil {
				return fieldErr(i, name, "%s", err.Error())
			}
			f.SetString(s)
		}
	}
	if e.Session == "" {
		return fieldErr(i, "session", "missing: every entry names its session")
	}
	if e.Kind == KindRun && e.Run == "" {
		return fieldErr(i, "run", "missing: a run entry names its run")
	}
	for _, name := range spec.required {
		if v.Field(entryFields[name]).IsZero() {
			return fieldErr(i, name, "missing: a %s entry needs it", e.Kind)
		}
	}
	return checkValues(i, e)
}

// checkString checks one string field's encoding, size, shape and
// credentials (masked in place with redact).
func checkString(name string, s *string, redact bool) error {
	limit := fieldLimit(name)
	switch {
	case !utf8.ValidString(*s):
		return errors.New("not valid UTF-8")
	case len(*s) > limit:
		return fmt.Errorf("%d bytes, over the limit of %d bytes: send a shorter summary", len(*s), limit)
	case strings.ContainsRune(*s, 0):
		return errors.New("holds a NUL byte")
	}
	if slices.Contains(freeText, name) {
		if relpath.HasHomePath(*s) {
			return errors.New("names an absolute path in a home directory or on a drive: give paths relative to the repository")
		}
	} else if strings.IndexFunc(*s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' || unicode.IsControl(r) }) >= 0 {
		return errors.New("holds a line break or control character: send one line")
	}
	if err := mneme.CheckCredential(name, s, redact); err != nil {
		var found *mneme.CredentialFound
		if errors.As(err, &found) {
			return fmt.Errorf("holds a credential (%s): leave it out, or send redact true to mask it", found.Found)
		}
		return errors.New(mneme.ErrorMessage(err))
	}
	return nil
}

// checkValues checks the typed values a kind gives meaning to.
func checkValues(i int, e *Entry) error {
	if e.Host != "" && !slices.Contains(Hosts, e.Host) {
		return fieldErr(i, "host", "%q is not a host: use one of %s", e.Host, strings.Join(Hosts, ", "))
	}
	if e.Repo != "" && !hexSHA256.MatchString(e.Repo) && e.Repo != "." {
		if err := relpath.Check(e.Repo); err != nil {
			return fieldErr(i, "repo", "%v (or sha256:<hex> of the root)", err)
		}
	}
	if e.Path != "" {
		if err := relpath.Check(e.Path); err != nil {
			return fieldErr(i, "path", "%v", err)
		}
	}
	switch {
	case e.SHA256 != "" && !hexSHA256.MatchString(e.SHA256):
		return fieldErr(i, "sha256", "not a sha256: 64 lowercase hex digits")
	case e.Reason != "" && !reasonCode.MatchString(e.Reason):
		return fieldErr(i, "reason", "%q is not a reason code: lowercase letters, digits and _ . : -", e.Reason)
	case e.DurationMS < 0:
		return fieldErr(i, "duration_ms", "negative")
	case e.Size < 0:
		return fieldErr(i, "size", "negative")
	case e.Started != nil && e.Ended != nil && e.Ended.Before(*e.Started):
		return fieldErr(i, "ended_at", "before started_at")
	}
	if e.Kind == KindSession && e.Host == "" {
		e.Host = "other"
	}
	return nil
}
