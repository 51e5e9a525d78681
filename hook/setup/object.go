package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// object is a JSON object that keeps its keys in the order the user wrote
// them, and every value it is not asked to change byte for byte: a merge
// into someone's settings file changes only mneme's entries.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

// parseObject reads one JSON object (empty input: an empty object).
func parseObject(b []byte) (*object, error) {
	o := newObject()
	if len(bytes.TrimSpace(b)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o.set(t.(string), v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

func (o *object) get(k string) json.RawMessage { return o.vals[k] }

// set sets k to v (raw JSON, or any value to encode), keeping its place.
func (o *object) set(k string, v any) {
	raw, ok := v.(json.RawMessage)
	if !ok {
		raw = encode(v)
	}
	if _, had := o.vals[k]; !had {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = raw
}

func (o *object) del(k string) {
	if _, had := o.vals[k]; had {
		delete(o.vals, k)
		o.keys = slices.DeleteFunc(o.keys, func(s string) bool { return s == k })
	}
}

func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encode(k))
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode is v's JSON without HTML escaping.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// pretty is o indented as settings files are, with a final newline.
func pretty(o *object) []byte {
	var b bytes.Buffer
	raw, _ := o.MarshalJSON()
	_ = json.Indent(&b, raw, "", "  ")
	b.WriteByte('\n')
	return b.Bytes()
}
