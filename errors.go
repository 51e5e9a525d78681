package mneme

import (
	"errors"
	"fmt"
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
type Error struct {
	Code    string
	Message string
	Err     error // the underlying cause, if any; never shown as the message
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

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

// ErrorMessage returns the human message of err.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
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
		written = Count(e.Written, "record was", "records were") + " written"
	}
	return fmt.Sprintf("interrupted: %s kept in the cache; %s", Count(e.Cached, "embedding", "embeddings"), written)
}

func (e *Interrupted) Unwrap() error { return e.Err }

// Count writes n with thousands separators and the noun that goes with it:
// "1 embedding", "1,234 embeddings".
func Count(n int, one, many string) string {
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
