package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/mneme-ai/mneme"
)

// Codes only HTTP has; the rest are mneme's.
const (
	EUNAUTHORIZED = "EUNAUTHORIZED"  // no bearer token, or an unknown one
	EFORBIDDEN    = mneme.EFORBIDDEN // the token's scope does not allow the call
)

var statuses = map[string]int{
	mneme.EINVALID:     http.StatusBadRequest,
	mneme.ENOTFOUND:    http.StatusNotFound,
	mneme.ECONFLICT:    http.StatusConflict,
	mneme.EUNAVAILABLE: http.StatusServiceUnavailable,
	mneme.EINTERNAL:    http.StatusInternalServerError,
	EUNAUTHORIZED:      http.StatusUnauthorized,
	EFORBIDDEN:         http.StatusForbidden,
}

// errorBody is the CLI's --json error shape.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Hints   []mneme.Hint `json:"hints,omitempty"` // the request fields the message names
}

func forbidden(format string, args ...any) error { return mneme.Errorf(EFORBIDDEN, format, args...) }

// fail writes err as a JSON error with the status its code maps to, and
// notes the code for the request's log line.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := mneme.ErrorCode(err), mneme.ErrorMessage(err)
	status, ok := statuses[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
		status = http.StatusRequestEntityTooLarge
	}
	if info := infoFrom(r.Context()); info != nil {
		info.code = code
		if code == mneme.EINTERNAL {
			info.err = msg // store and I/O failures, which name no memory content
		}
	}
	reply(w, status, errorBody{errorDetail{code, msg, mneme.Hints(err)}})
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	reply(w, status, errorBody{errorDetail{Code: code, Message: msg}})
}

// reply writes v as one line of JSON, as the CLI prints it.
func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v) //nolint:errcheck // the client went away; nothing to tell it
}

// readBody reads the whole request body under the configured limit. JSON
// decoding would silently replace invalid UTF-8, so it is refused here.
func readBody(r *http.Request) ([]byte, error) {
	data, err := readRaw(r)
	if err == nil && !utf8.Valid(data) {
		return nil, mneme.Invalid("request body is not valid UTF-8: convert it to UTF-8 first")
	}
	return data, err
}

// readRaw reads the body within the size limit, its encoding unchecked
// (ops checks it entry by entry, to name the field).
func readRaw(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &mneme.Error{Code: mneme.EINVALID, Err: mbe,
			Message: fmt.Sprintf("request body is over the limit of %s: send less at once (split a batch)", size(mbe.Limit))}
	case err != nil:
		return nil, mneme.Invalid("cannot read the request body: %v", err)
	}
	return data, nil
}

// decode reads the body into v strictly (unknown fields, wrong types and
// trailing data are errors).
func decode(r *http.Request, v any) error {
	data, err := readBody(r)
	if err != nil {
		return err
	}
	return mneme.DecodeStrict(data, v)
}

// requests decodes a request body: one T, or with field a batch
// {field: [T, …]} decoded item by item, so that an error names the item
// and lists a T's fields rather than the wrapper's.
func requests[T any](r *http.Request, field string) ([]T, error) {
	if field == "" {
		out := make([]T, 1)
		return out, decode(r, &out[0])
	}
	var body map[string]json.RawMessage
	if err := decode(r, &body); err != nil {
		return nil, err
	}
	var items []json.RawMessage
	for k, v := range body {
		if k != field {
			return nil, mneme.Invalid("unknown field %q: send {%q: [...]}", mneme.Clip(k), field)
		}
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, mneme.Invalid("field %q must be an array", field)
		}
	}
	if len(items) == 0 {
		return nil, mneme.Invalid("%s is empty: send at least one item", field)
	}
	out := make([]T, len(items))
	for i, m := range items {
		if err := mneme.DecodeStrict(m, &out[i]); err != nil {
			return nil, at(field, i, err)
		}
	}
	return out, nil
}

// at prefixes err with the batch item it is about ("memories[3]"); with
// no field (a single request) err is left as it is.
func at(field string, i int, err error) error {
	if field == "" {
		return err
	}
	return prefixed(fmt.Sprintf("%s[%d]", field, i), err)
}

// prefixed puts what err is about before its message, keeping its code.
func prefixed(where string, err error) error { return mneme.Prefix(where, err) }

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
