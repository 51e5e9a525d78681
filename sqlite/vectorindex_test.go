package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/sqlite"
)

func openWith(t *testing.T, home string, dim int) *mneme.Engine {
	t.Helper()
	eng := open(t, home)
	em, _ := hash.New(dim)
	return mneme.NewEngine(eng.Store(), mneme.WithEmbedder(em))
}

// nearest is the text of the best vector-lane hit for text.
func nearest(t *testing.T, eng *mneme.Engine, text string) string {
	t.Helper()
	res, err := eng.Recall(context.Background(), mneme.Query{Text: text, K: 1, Mode: mneme.Vector})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("vector recall of %q: %+v, %v", text, res, err)
	}
	return res.Hits[0].Record.Text
}

func vectorState(t *testing.T, eng *mneme.Engine) mneme.HealthCheck {
	t.Helper()
	states, err := eng.Store().(mneme.HealthChecker).Health(context.Background())
	for _, st := range states {
		if err == nil && st.Name == "vector index" {
			return st
		}
	}
	t.Fatalf("index status = %+v, %v", states, err)
	return mneme.HealthCheck{}
}

// TestVectorSnapshotLifecycle: the vector index is saved after big writes,
// follows other writers, and is rebuilt when corrupt or built for another
// embedder; doctor's status says which.
func TestVectorSnapshotLifecycle(t *testing.T) {
	home := t.TempDir()
	snap := filepath.Join(home, sqlite.VectorFile)
	eng := openWith(t, home, 16)
	fill(t, eng, 0, 1200, "heron")
	eng.Close()
	if _, err := os.Stat(snap); err != nil {
		t.Fatalf("no vector snapshot after writing 1200 records: %v", err)
	}

	reader, writer := openWith(t, home, 16), openWith(t, home, 16)
	if st := vectorState(t, reader); !st.OK || !strings.Contains(st.Detail, "current") {
		t.Fatalf("fresh snapshot: %+v", st)
	}
	if got := nearest(t, reader, "heron note number 17"); got != "heron note number 17" {
		t.Fatalf("from the snapshot: %q", got)
	}
	fill(t, writer, 5000, 3, "egret")
	if got := nearest(t, reader, "egret note number 5001"); got != "egret note number 5001" {
		t.Fatalf("the reader missed another process's write: %q", got)
	}
	writer.Close()
	reader.Close()

	data, _ := os.ReadFile(snap)
	data[len(data)-9] ^= 0xff
	os.WriteFile(snap, data, 0o600)
	eng = openWith(t, home, 16)
	if st := vectorState(t, eng); st.OK || !strings.Contains(st.Detail, "checksum") {
		t.Fatalf("corrupt snapshot: %+v", st)
	}
	if got := nearest(t, eng, "egret note number 5002"); got != "egret note number 5002" {
		t.Fatalf("after a corrupt snapshot: %q", got)
	}
	if st := vectorState(t, eng); !st.OK {
		t.Fatalf("the rebuild did not replace the corrupt snapshot: %+v", st)
	}
	eng.Close()

	eng = openWith(t, home, 24) // another embedder: reindex, then its own index
	defer eng.Close()
	if _, err := eng.Reindex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, eng, "heron note number 1100"); got != "heron note number 1100" {
		t.Fatalf("after reindexing with another embedder: %q", got)
	}
}
