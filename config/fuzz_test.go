package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/access"
)

// FuzzReadFile: any config.json reads or fails with EINVALID naming the
// file, never panics; a file that reads passes or fails Check with
// EINVALID, its tokens are checked without panicking, and writing it back (WriteFile) reads back the same.
func FuzzReadFile(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, config.FileName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := config.ReadFile(home)
		if err != nil {
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("read: %v has code %s", err, mneme.ErrorCode(err))
			}
			return
		}
		if err := file.Check(); err != nil && mneme.ErrorCode(err) != mneme.EINVALID {
			t.Fatalf("check: %v has code %s", err, mneme.ErrorCode(err))
		}
		access.Check(file.Server.Tokens, func(string) string { return "" }) //nolint:errcheck // only: no panic
		again := t.TempDir()
		if err := config.WriteFile(again, file); err != nil {
			t.Fatalf("write back: %v", err)
		}
		back, err := config.ReadFile(again)
		if err != nil {
			t.Fatalf("a file written back does not read: %v", err)
		}
		if !reflect.DeepEqual(normal(back), normal(file)) {
			t.Fatalf("written back, the file reads differently:\n%+v\n%+v", file, back)
		}
	})
}

// normal treats empty and missing lists alike (JSON writes an empty list
// as [] but reads null as nil).
func normal(f config.File) config.File {
	for _, l := range []*[]string{&f.Server.AllowedHosts, &f.Server.AllowedOrigins} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	if len(f.Server.Tokens) == 0 {
		f.Server.Tokens = nil
	}
	for i := range f.Server.Tokens {
		if len(f.Server.Tokens[i].Projects) == 0 {
			f.Server.Tokens[i].Projects = nil
		}
	}
	return f
}
