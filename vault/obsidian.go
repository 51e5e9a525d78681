package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// obsidianKeys are Obsidian's own list properties. A note may carry them
// in its front matter; the record keeps them in its meta, and an export
// writes them back as properties, so Obsidian shows them.
var obsidianKeys = []string{"aliases", "cssclasses"}

type property struct {
	key   string
	items []string
}

// object is a JSON object's members in their order.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func parseObject(raw json.RawMessage) (object, error) {
	o := object{vals: map[string]json.RawMessage{}}
	if len(raw) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return o, errors.New("meta is not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return o, errors.New("meta is not valid JSON")
		}
		k := tok.(string)
		if _, dup := o.vals[k]; !dup {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = v
	}
	return o, nil
}

// encode is the object as compact JSON, nil when it has no members.
func (o object) encode() json.RawMessage {
	if len(o.keys) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k) // a string: always encodes
		b.Write(kb)
		b.WriteByte(':')
		_ = json.Compact(&b, o.vals[k]) // decoded by parseObject: valid
	}
	b.WriteByte('}')
	return b.Bytes()
}

// splitMeta takes the Obsidian properties (lists of strings) out of a
// record's meta: the properties, and the rest of the meta with its keys in
// their order. A meta without them is returned as it is.
func splitMeta(meta json.RawMessage) ([]property, json.RawMessage) {
	if !hasObsidianKey(meta) {
		return nil, meta
	}
	o, err := parseObject(meta)
	if err != nil {
		return nil, meta
	}
	var props []property
	rest := object{vals: o.vals}
	for _, k := range o.keys {
		var items []string
		if slices.Contains(obsidianKeys, k) && json.Unmarshal(o.vals[k], &items) == nil && len(items) > 0 {
			props = append(props, property{k, items})
			continue
		}
		rest.keys = append(rest.keys, k)
	}
	return props, rest.encode()
}

func hasObsidianKey(meta json.RawMessage) bool {
	for _, k := range obsidianKeys {
		if bytes.Contains(meta, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}

// joinMeta adds a note's Obsidian properties to its meta (an object, or
// empty), after the keys it has; a property replaces a meta key of the
// same name.
func joinMeta(meta json.RawMessage, props []property) (json.RawMessage, error) {
	if len(props) == 0 {
		return meta, nil
	}
	o, err := parseObject(meta)
	if err != nil {
		return nil, err
	}
	for _, p := range props {
		if _, ok := o.vals[p.key]; ok {
			o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == p.key })
		}
		o.keys = append(o.keys, p.key)
		o.vals[p.key], _ = json.Marshal(p.items) // strings: always encode
	}
	return o.encode(), nil
}
