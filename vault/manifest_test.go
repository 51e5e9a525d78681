package vault

import (
	"encoding/json"
	"reflect"
	"testing"
)

// manifestOf is a manifest holding files, encoded as export writes it.
func manifestOf(files ...ManifestFile) []byte {
	m := newManifest()
	m.Counts.Projects["p"] = len(files)
	m.Files = files
	return m.encode()
}

// TestParseFiles: the hand-read manifest is what encoding/json reads, and
// anything the hand reader does not know is left to encoding/json.
func TestParseFiles(t *testing.T) {
	plain := []ManifestFile{
		{Path: "p/semantic/a-1.md", ID: "01J", SHA256: "ab", Stamp: "cd"},
		{Path: "p/semantic/b-2.md", ID: "01K", SHA256: "ef"},
		{Path: "p/semantic/c-3.md", ID: "01L", SHA256: "gh", Missing: true},
		{Path: "p/semantic/d-4.md", ID: "01M", SHA256: "ij", Stamp: "kl", Missing: true},
	}
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool // read by hand
	}{
		{"plain", manifestOf(plain...), true},
		{"one file", manifestOf(plain[0]), true},
		{"no files", manifestOf(), true},
		{"escaped path", manifestOf(plain[0], ManifestFile{Path: "p/\"q\" é.md", ID: "01J", SHA256: "ab"}), false},
		{"compact", []byte(`{"schema":"x","counts":{},"files":[{"path":"a.md","id":"01J","sha256":"ab"}]}`), false},
		{"bad head", []byte("{\n  \"schema\": \"x\",,\n  \"files\": [\n    {\"path\":\"a.md\",\"id\":\"01J\",\"sha256\":\"ab\"}\n  ]\n}\n"), false},
		{"unknown field", []byte("{\n  \"schema\": \"x\",\n  \"files\": [\n    {\"path\":\"a.md\",\"id\":\"01J\",\"sha256\":\"ab\",\"size\":3}\n  ]\n}\n"), false},
		{"truncated", manifestOf(plain...)[:200], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseFiles(tc.data)
			if ok != tc.ok {
				t.Fatalf("read by hand = %v, want %v", ok, tc.ok)
			}
			var want Manifest
			err := json.Unmarshal(tc.data, &want)
			if ok && (err != nil || !reflect.DeepEqual(got, nonNil(want.Files))) {
				t.Fatalf("by hand %+v, encoding/json %+v (%v)", got, want.Files, err)
			}
		})
	}
}

func nonNil(f []ManifestFile) []ManifestFile {
	if f == nil {
		return []ManifestFile{}
	}
	return f
}

// FuzzParseFiles: what the hand reader accepts, encoding/json reads the
// same.
func FuzzParseFiles(f *testing.F) {
	f.Add(manifestOf(ManifestFile{Path: "a.md", ID: "01J", SHA256: "ab", Stamp: "cd"}, ManifestFile{Path: "b.md", ID: "01K", SHA256: "ef", Missing: true}))
	f.Add(manifestOf())
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := parseFiles(data)
		if !ok {
			return
		}
		var want Manifest
		if err := json.Unmarshal(data, &want); err != nil || !reflect.DeepEqual(got, nonNil(want.Files)) {
			t.Fatalf("by hand %+v, encoding/json %+v (%v)", got, want.Files, err)
		}
	})
}
