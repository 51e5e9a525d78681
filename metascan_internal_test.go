package mneme

import (
	"bytes"
	"encoding/json"
	"testing"
)

// validateMetaByDecoding is validateMeta as it was written first, by
// decoding: the reference the byte scan must agree with.
func validateMetaByDecoding(meta []byte) ([]byte, error) {
	if len(meta) == 0 || string(meta) == "null" {
		return nil, nil
	}
	if len(meta) > MaxMetaBytes {
		return nil, Invalid("meta is %d bytes, over the limit of %d", len(meta), MaxMetaBytes)
	}
	var obj map[string]any
	if err := json.Unmarshal(meta, &obj); err != nil || obj == nil {
		return nil, Invalid("meta must be a JSON object, like {\"ticket\":\"ENG-12\"}")
	}
	dec := json.NewDecoder(bytes.NewReader(meta))
	dec.Token()
	seen := map[string]bool{}
	for dec.More() {
		t, _ := dec.Token()
		k, _ := t.(string)
		if seen[k] {
			return nil, Invalid("meta has the key %q twice: give each key once (filters match one value per key)", Clip(k))
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	var buf bytes.Buffer
	json.Compact(&buf, meta)
	return buf.Bytes(), nil
}

var metaSeeds = []string{
	``, `null`, ` null `, `{}`, `{"a":1}`, ` { "a" : "b" , "c" : [1, {"a":2}] } `, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
	`{"a":{"b":1,"b":2}}`, `{"a":1e400}`, `{"a":[-1e309]}`, `{"a":1e-400}`, `{"a":"1e400"}`, `[1,2]`, `"text"`, `3`,
	`{"a":1`, `{"a":tru}`, `{"\xff":1,"\xfe":2}`, `{"\ud800":1,"\ufffd":2}`, `{"k\"ey":1,"k\"ey":2}`, `{"a":"}","a":0}`,
	`{"x":-0.5E+3,"y":true,"z":null}`, "{\"a\":\"\x00\"}",
}

// FuzzValidateMeta: the byte scan accepts, refuses (with the same
// message) and compacts exactly what decoding does.
func FuzzValidateMeta(f *testing.F) {
	for _, s := range metaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, meta []byte) {
		want, wantErr := validateMetaByDecoding(meta)
		r := &Record{Meta: bytes.Clone(meta)}
		err := validateMeta(r)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("meta %q: error %v, decoding says %v", meta, err, wantErr)
		}
		if err == nil && !bytes.Equal(r.Meta, want) {
			t.Fatalf("meta %q: stored as %q, decoding gives %q", meta, r.Meta, want)
		}
	})
}
