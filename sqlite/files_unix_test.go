//go:build unix

package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestFileModes: whatever the umask, the data directory is 0700 and every
// file mneme writes in it (database, WAL, shared memory, marker, index
// snapshots) 0600.
func TestFileModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	home := filepath.Join(t.TempDir(), "home")
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	em, _ := hash.New(8)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	recs := make([]*mneme.Record, 1200) // enough changes for Close to save the snapshots
	for i := range recs {
		recs[i] = &mneme.Record{Text: fmt.Sprintf("memory %d", i)}
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{"": 0o700 | os.ModeDir, sqlite.FileName: 0o600, sqlite.FileName + "-wal": 0o600, sqlite.FileName + "-shm": 0o600, sqlite.MarkerFile: 0o600}
	check := func() {
		t.Helper()
		for name, mode := range want {
			st, err := os.Stat(filepath.Join(home, name))
			if err != nil || st.Mode() != mode {
				t.Errorf("%s: %v, mode %v, want %v", name, err, st.Mode(), mode)
			}
		}
	}
	check()
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	delete(want, sqlite.FileName+"-wal")
	delete(want, sqlite.FileName+"-shm")
	want[sqlite.IndexFile], want[sqlite.VectorFile] = 0o600, 0o600
	check()
}
