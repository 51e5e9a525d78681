package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/sqlite"
)

// TestSnapshotTempsSwept: the temporary file of a snapshot whose writer was
// killed before renaming it is removed by the next snapshot write once it
// is stale; a fresh one, perhaps another process's write in progress, stays.
func TestSnapshotTempsSwept(t *testing.T) {
	home := t.TempDir()
	stale := filepath.Join(home, sqlite.IndexFile+".1234567")
	staleVec := filepath.Join(home, sqlite.VectorFile+".7654321")
	staleMarker := filepath.Join(home, sqlite.MarkerFile+".42")
	fresh := filepath.Join(home, sqlite.IndexFile+".999")
	for _, p := range []string{stale, staleVec, staleMarker, fresh} {
		if err := os.WriteFile(p, []byte("half a snapshot"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	os.Chtimes(staleVec, old, old)
	os.Chtimes(staleMarker, old, old)
	eng := open(t, home)
	fill(t, eng, 0, 1100, "gnu") // enough changes for Close to save a snapshot
	eng.Close()
	if _, err := os.Stat(filepath.Join(home, sqlite.IndexFile)); err != nil {
		t.Fatalf("no snapshot written: %v", err)
	}
	for _, p := range []string{stale, staleVec, staleMarker} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", filepath.Base(p), err)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh temporary file was removed: %v", err)
	}
}
