package importers_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/importers"
)

// FuzzFileFormats: every file format parses its input or refuses it as
// bad input (EINVALID), never panics; what it accepts passes the record
// checks or is refused by them, as an import would.
func FuzzFileFormats(f *testing.F) {
	for _, name := range []string{"mcp-memory.jsonl", "mem0.json", "engram.json", "records.jsonl"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range importers.Names() {
			format, _ := importers.Lookup(name)
			if format.Dir {
				continue
			}
			recs, err := format.Parse(importers.Input{Project: "p", Files: []importers.File{{Name: "in", Data: data}}})
			if err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("%s: %v", name, err)
			}
			for _, r := range recs {
				if err := mneme.Check(*r, mneme.WriteOptions{}); err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
					t.Fatalf("%s: record check: %v", name, err)
				}
			}
		}
	})
}
