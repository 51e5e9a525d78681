package walk

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestKnown: a file Known reports is listed without being opened (an
// unreadable one too); the others are still sniffed.
func TestKnown(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "known.txt"), []byte("text"), 0o000) // cannot be opened
	os.WriteFile(filepath.Join(dir, "new.bin"), []byte("a\x00b"), 0o644)
	known := func(rel string, size int64, _ time.Time) bool { return rel == "known.txt" && size == 4 }
	files, skips, err := Files([]string{dir}, Options{Known: known})
	if err != nil || len(files) != 1 || files[0].Rel != "known.txt" || len(skips) != 1 || skips[0].Reason != reasonBinary {
		t.Fatalf("files %+v, skips %+v, %v", files, skips, err)
	}
}
