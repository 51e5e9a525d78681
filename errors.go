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
