// Package schemas publishes the JSON Schemas of mneme's requests and
// responses (schemas/v1, one file per type, generated from the Go types by
// Generate and kept true by the manifest package's test) for clients that
// discover the service through `mneme manifest`.
package schemas

import (
	"embed"
	"encoding/json"
	"io/fs"
	"path"
	"strings"
)

//go:embed v1/*.json
var files embed.FS

// All is every published schema by name (the file name without .json).
func All() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	entries, _ := fs.ReadDir(files, "v1") // embedded: always readable
	for _, e := range entries {
		b, _ := files.ReadFile(path.Join("v1", e.Name()))
		out[strings.TrimSuffix(e.Name(), ".json")] = b
	}
	return out
}
