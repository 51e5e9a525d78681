package sqlite

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestUnmarshalTags: the hand-split path decodes what encoding/json does.
func TestUnmarshalTags(t *testing.T) {
	for _, s := range []string{`[]`, `null`, `["a"]`, `["a","b"]`, `[""]`, `["",""]`, `["a", "b"]`,
		`["x\"y"]`, `["é","\u003cb\u003e"]`, `["a","b",  "c"]`, `[ "a"]`, `["a\\","b"]`} {
		var want, got []string
		wantErr := json.Unmarshal([]byte(s), &want)
		err := unmarshalTags(s, &got)
		if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("unmarshalTags(%s) = %q, %v; json: %q, %v", s, got, err, want, wantErr)
		}
	}
}
