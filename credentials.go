package mneme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/internal/secret"
)

// checkCredentials refuses, or with redact masks, the credentials in every
// free-form string of r: the title and text, and the project, kind, key,
// tags, source, session, run, speaker and every key and string of meta,
// which are stored and shown to every reader just as the text is. The error
// names the first field that holds one (tags[2], meta.db.url). The other
// string fields are enums, ids and hashes that validation holds to a fixed
// shape. Tags, the source and meta are replaced, never changed in place:
// Check runs on a copy of a record that shares them with its caller.
func checkCredentials(r *Record, redact bool) error {
	for _, f := range [...]struct {
		name  string
		v     *string
		limit int
	}{
		{"title", &r.Title, MaxTitleBytes}, {"text", &r.Text, MaxTextBytes},
		{"project", &r.Project, 0}, {"kind", &r.Kind, MaxFieldBytes}, {"key", &r.Key, MaxFieldBytes},
		{"session_id", &r.SessionID, MaxFieldBytes}, {"run_id", &r.RunID, MaxFieldBytes},
		{"speaker", &r.Speaker, MaxFieldBytes},
	} {
		if err := checkString(f.name, f.v, f.limit, redact); err != nil {
			return err
		}
	}
	copied := false
	for i, t := range r.Tags {
		if err := checkString("tags["+strconv.Itoa(i)+"]", &t, MaxTagBytes, redact); err != nil {
			return err
		}
		if t != r.Tags[i] {
			if !copied {
				r.Tags, copied = append([]string(nil), r.Tags...), true
			}
			r.Tags[i] = t
		}
	}
	if r.Source != nil {
		s := *r.Source
		if err := checkString("source.uri", &s.URI, 4*MaxFieldBytes, redact); err != nil {
			return err
		}
		if err := checkString("source.parent", &s.Parent, MaxFieldBytes, redact); err != nil {
			return err
		}
		if s != *r.Source {
			r.Source = &s
		}
	}
	meta, err := checkMeta(r.Meta, redact)
	r.Meta = meta
	return err
}

// checkString checks the field name, masking in place with redact. limit
// (0 for the project, whose pattern a mask never fits) is the field's
// length limit, which a mask longer than the value may overrun.
func checkString(name string, v *string, limit int, redact bool) error {
	if *v == "" {
		return nil
	}
	return checkFound(name, v, secret.Scan(*v), limit, redact)
}

func checkFound(name string, v *string, found []secret.Finding, limit int, redact bool) error {
	switch {
	case len(found) == 0:
		return nil
	case !redact:
		return credentialError(name, *v, found)
	case limit == 0:
		return Invalid("%s contains a credential (%s), which cannot be masked in a %s: use another name", name, describeIn(name, *v, found), name)
	}
	masked := secret.Mask(*v, found)
	if len(masked) > limit {
		return Invalid("%s is %d bytes once its credential (%s) is masked, over the limit of %d: leave the credential out", name, len(masked), describeIn(name, *v, found), limit)
	}
	*v = masked
	return nil
}

func credentialError(name, v string, found []secret.Finding) error {
	what := name
	if name == "text" {
		what = "the text" // the message every surface has always given
	}
	return Invalid("%s contains a credential (%s), so nothing was written: store it as secret (--sensitivity secret) or mask the values (--redact)", what, describeIn(name, v, found))
}

// describeIn says what was found in the field name, with line numbers in
// the text and wherever else v has lines.
func describeIn(name, v string, found []secret.Finding) string {
	if name == "text" || strings.Contains(v, "\n") {
		return secret.Describe(found)
	}
	return secret.DescribeKinds(found)
}

// checkMeta checks every key and string of meta, a JSON object, and
// returns it with redact's masks (re-encoded compact, key order, numbers
// and duplicate keys kept), or as it was when nothing was masked. A string
// stored under a key that names a secret ("db_password") counts whole, as
// "db_password": "…" would in a text. Meta that is not a JSON object is
// left to validation, which refuses it.
func checkMeta(meta json.RawMessage, redact bool) (json.RawMessage, error) {
	meta = bytes.TrimSpace(meta)
	if len(meta) == 0 || meta[0] != '{' {
		return meta, nil
	}
	w := metaWalker{dec: json.NewDecoder(bytes.NewReader(meta)), redact: redact}
	w.dec.UseNumber()
	w.enc = json.NewEncoder(&w.out)
	w.enc.SetEscapeHTML(false)
	err := w.value("meta", "")
	if err == nil {
		if _, err = w.dec.Token(); err == io.EOF {
			err = nil
		} else if err == nil {
			err = errors.New("data after the object")
		}
	}
	var found *Error
	switch {
	case errors.As(err, &found):
		return meta, err
	case err != nil || !w.changed:
		return meta, nil // not one JSON object: validation says so
	}
	return w.out.Bytes(), nil
}

// metaWalker walks meta token by token, writing it back when it masks.
type metaWalker struct {
	dec     *json.Decoder
	enc     *json.Encoder
	out     bytes.Buffer
	redact  bool
	changed bool
}

// value walks the value at path; name is the nearest key above it.
func (w *metaWalker) value(path, name string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		end := byte('}')
		if t == '[' {
			end = ']'
		}
		w.write(string(t))
		for i := 0; w.dec.More(); i++ {
			if i > 0 {
				w.write(",")
			}
			elem := path + "[" + strconv.Itoa(i) + "]"
			if t == '{' {
				tok, err := w.dec.Token()
				if err != nil {
					return err
				}
				key, _ := tok.(string)
				masked, err := w.str("a key in "+path, key, secret.Scan(key))
				if err != nil {
					return err
				}
				elem, name = keyPath(path, masked), key
				w.write(":")
			}
			if err := w.value(elem, name); err != nil {
				return err
			}
		}
		if _, err := w.dec.Token(); err != nil {
			return err
		}
		w.write(string(end))
	case string:
		_, err := w.str(path, t, secret.ScanNamed(name, t))
		return err
	case json.Number:
		w.write(t.String())
	case bool:
		w.write(strconv.FormatBool(t))
	case nil:
		w.write("null")
	}
	return nil
}

// str checks one string (a key or a value) and writes it, masked.
func (w *metaWalker) str(name, s string, found []secret.Finding) (string, error) {
	if err := checkFound(name, &s, found, MaxMetaBytes, w.redact); err != nil {
		return s, err
	}
	if w.redact {
		w.changed = w.changed || len(found) > 0
		if err := w.enc.Encode(s); err != nil {
			return s, err
		}
		w.out.Truncate(w.out.Len() - 1) // Encode's newline
	}
	return s, nil
}

func (w *metaWalker) write(s string) {
	if w.redact {
		w.out.WriteString(s)
	}
}

// keyPath names a meta field: meta.db.url, or meta["odd key"].
func keyPath(path, key string) string {
	plain := key != ""
	for i := 0; i < len(key) && plain; i++ {
		c := key[i]
		plain = 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-'
	}
	if plain {
		return path + "." + key
	}
	return fmt.Sprintf("%s[%q]", path, key)
}
