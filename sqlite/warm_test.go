package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestIndexBacklog: the backlog a search would index first is every
// record while no snapshot can be followed (none, damaged, another
// database's), the changes since the snapshot once one is saved, and 0
// after WarmIndexes, which saves the snapshot however small the backlog.
func TestIndexBacklog(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	snap := filepath.Join(home, sqlite.IndexFile)
	backlog := func(label string, want int64) {
		t.Helper()
		eng := open(t, home)
		defer eng.Close()
		if n, err := eng.IndexBacklog(ctx); err != nil || n != want {
			t.Fatalf("%s: backlog %d, %v; want %d", label, n, err, want)
		}
	}
	eng := open(t, home)
	fill(t, eng, 0, 40, "yak")
	eng.Close()
	backlog("no snapshot", 40)

	eng = open(t, home)
	if n, err := eng.WarmIndexes(ctx); err != nil || n != 40 {
		t.Fatalf("warm: %d, %v; want the backlog 40", n, err)
	}
	if n, _ := eng.IndexBacklog(ctx); n != 0 {
		t.Fatalf("backlog %d after warming, want 0", n)
	}
	fill(t, eng, 40, 3, "yak")
	eng.Close()
	if _, err := os.Stat(snap); err != nil {
		t.Fatalf("warming saved no snapshot: %v", err)
	}
	backlog("three records after the snapshot", 3)

	data, _ := os.ReadFile(snap)
	data[len(data)-5] ^= 0xff
	os.WriteFile(snap, data, 0o600)
	backlog("damaged snapshot", 43)

	eng = open(t, home)
	eng.WarmIndexes(ctx)
	if n := count(t, eng, "yak"); n != 43 {
		t.Fatalf("recall after warming finds %d, want 43", n)
	}
	eng.Close()
	backlog("warmed again", 0)
}

// TestIndexBacklogVectors: in a home with an embedder, a vector index with
// no snapshot is a rebuild of every record, though the word index is
// current.
func TestIndexBacklogVectors(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	eng := openWith(t, home, 8)
	recs := []*mneme.Record{{Text: "alpha"}, {Text: "beta"}, {Text: "gamma"}}
	if _, err := eng.Remember(ctx, recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.WarmIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	eng.Close()
	for _, f := range []string{sqlite.IndexFile, sqlite.VectorFile} {
		if _, err := os.Stat(filepath.Join(home, f)); err != nil {
			t.Fatalf("warming saved no %s: %v", f, err)
		}
	}
	os.Remove(filepath.Join(home, sqlite.VectorFile))
	eng = openWith(t, home, 8)
	defer eng.Close()
	if n, err := eng.IndexBacklog(ctx); err != nil || n != 3 {
		t.Fatalf("backlog %d, %v without a vector snapshot; want 3", n, err)
	}
}

// TestLeaveIndexes: a process told to leave the indexes does not rebuild
// them when it closes, however many changes it leaves behind; otherwise
// Close saves a snapshot after many writes.
func TestLeaveIndexes(t *testing.T) {
	for _, leave := range []bool{false, true} {
		home := t.TempDir()
		eng := open(t, home)
		if leave {
			eng.LeaveIndexes()
		}
		fill(t, eng, 0, 1200, "yak")
		eng.Close()
		_, err := os.Stat(filepath.Join(home, sqlite.IndexFile))
		if saved := err == nil; saved == leave {
			t.Errorf("leave %v: snapshot saved on close = %v", leave, saved)
		}
	}
}
