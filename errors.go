package mneme

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Error codes shared by every surface: the CLI maps them to exit codes,
// HTTP to statuses, MCP to tool errors.
const (
	EINVALID     = "EINVALID"     // the caller sent something wrong; retrying unchanged will fail again
	ENOTFOUND    = "ENOTFOUND"    // the named thing does not exist (or is not visible)
	ECONFLICT    = "ECONFLICT"    // the write conflicts with the stored state
	EUNAVAILABLE = "EUNAVAILABLE" // a dependency (store, provider) cannot be reached
	EINTERNAL    = "EINTERNAL"    // a bug or an unexpected failure
)

// Error is mneme's error: a code for programs and a message for people.
// The message may name request fields as hints, written {{field}} or
// {{field=value}} with the field's JSON name: each surface words them in
// its own terms (a CLI flag, a JSON field), and programs read them from
// Hints.
type Error struct {
	Code    string
	Message string
	Err     error // the underlying cause, if any; never shown as the message
}

func (e *Error) Error() string { return Render(e, FieldTerms) }
func (e *Error) Unwrap() error { return e.Err }

// Hint is a request field a message names, and the value that would do
// ("" when any).
// ErrorEnvelope is how an error is written as JSON: by the CLI with
// --json (one line on stderr) and by the HTTP API.
type ErrorEnvelope struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is an error's code, message and hints (the request fields the
// message names).
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hints   []Hint `json:"hints,omitempty"`
}

type Hint struct {
	Field string `json:"field"`
	Value string `json:"value,omitempty"`
}

// Terms words a hint in a surface's terms.
type Terms func(h Hint) string

// FieldTerms words hints as JSON fields: mode "lexical", redact true.
func FieldTerms(h Hint) string {
	switch h.Value {
	case "":
		return h.Field
	case "true":
		return h.Field + " true"
	}
	return fmt.Sprintf("%s %q", h.Field, h.Value)
}

var hintRE = regexp.MustCompile(`\{\{([a-z_]+)(?:=([^{}]*))?\}\}`)

// Render is err's message with its hints worded by terms.
func Render(err error, terms Terms) string {
	var e *Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	return hintRE.ReplaceAllStringFunc(e.Message, func(m string) string {
		sub := hintRE.FindStringSubmatch(m)
		return terms(Hint{Field: sub[1], Value: sub[2]})
	})
}

// Hints lists the request fields err's message names.
func Hints(err error) []Hint {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	var out []Hint
	for _, sub := range hintRE.FindAllStringSubmatch(e.Message, -1) {
		out = append(out, Hint{Field: sub[1], Value: sub[2]})
	}
	return out
}

// Prefix puts what err is about before its message, keeping its code and
// hints.
func Prefix(where string, err error) error {
	return &Error{Code: ErrorCode(err), Message: where + ": " + rawMessage(err), Err: err}
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid is shorthand for an EINVALID error.
func Invalid(format string, args ...any) *Error { return Errorf(EINVALID, format, args...) }

// InternalError wraps an unexpected error with context.
func InternalError(err error, context string) *Error {
	return &Error{Code: EINTERNAL, Message: context + ": " + err.Error(), Err: err}
}

// ErrorCode returns the code of err, EINTERNAL for foreign errors and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the human message of err, hints worded as JSON
// fields (see Render for other terms).
func ErrorMessage(err error) string { return Render(err, FieldTerms) }

// rawMessage is err's message with its hints unworded, for composing.
func rawMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return strings.ReplaceAll(err.Error(), "{{", "{ {")
}

// Interrupted is the cause of a write stopped by its context (Ctrl-C, a
// deadline) before it finished, and what it kept: the embeddings computed
// so far stay in the store's cache, so running the same write again
// resumes where it stopped. Writes return it inside an *Error
// (EUNAVAILABLE) whose message says the same.
type Interrupted struct {
	Cached  int   // embeddings computed before the stop and kept in the cache
	Written int   // records written before the stop (reindex and ingest write as they go; other writes all at once)
	Err     error // why the context ended
}

func (e *Interrupted) Error() string {
	written := "nothing was written"
	if e.Written > 0 {
		written = Plural(e.Written, "record was", "records were") + " written"
	}
	return fmt.Sprintf("interrupted: %s kept in the cache; %s", Plural(e.Cached, "embedding", "embeddings"), written)
}

func (e *Interrupted) Unwrap() error { return e.Err }

// Plural writes n with thousands separators and the noun that goes with it:
// "1 embedding", "1,234 embeddings".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	s := fmt.Sprint(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s + " " + many
}
