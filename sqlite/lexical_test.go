package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

func open(t *testing.T, home string) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	return mneme.NewEngine(s)
}

func fill(t *testing.T, eng *mneme.Engine, from, n int, word string) {
	t.Helper()
	recs := make([]*mneme.Record, n)
	for i := range recs {
		recs[i] = &mneme.Record{Text: fmt.Sprintf("%s note number %d", word, from+i)}
	}
	if _, err := eng.Remember(context.Background(), recs, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, eng *mneme.Engine, word string) int {
	t.Helper()
	res, err := eng.Recall(context.Background(), mneme.Query{Text: word, K: mneme.MaxK})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Hits)
}

// TestIndexFollowsOtherWriters: a reader holding an index sees what another
// store on the same home writes and deletes, without reopening.
func TestIndexFollowsOtherWriters(t *testing.T) {
	home := t.TempDir()
	reader, writer := open(t, home), open(t, home)
	defer reader.Close()
	defer writer.Close()
	fill(t, writer, 0, 5, "zebra")
	if n := count(t, reader, "zebra"); n != 5 {
		t.Fatalf("reader sees %d, want 5", n)
	}
	res, _ := writer.Recall(context.Background(), mneme.Query{Text: "zebra", K: 1})
	if _, err := writer.Forget(context.Background(), mneme.ForgetRequest{IDs: []string{res.Hits[0].ID}}); err != nil {
		t.Fatal(err)
	}
	fill(t, writer, 5, 2, "zebra")
	if n := count(t, reader, "zebra"); n != 6 {
		t.Fatalf("reader sees %d after a delete and two inserts, want 6", n)
	}
}

// TestSnapshotLifecycle: a big write leaves a snapshot; a new process uses
// it, catches up on later changes, and rebuilds a corrupt or foreign one.
func TestSnapshotLifecycle(t *testing.T) {
	home := t.TempDir()
	snap := filepath.Join(home, sqlite.IndexFile)
	eng := open(t, home)
	fill(t, eng, 0, 1500, "yak")
	eng.Close()
	info, err := os.Stat(snap)
	if err != nil {
		t.Fatalf("no snapshot after writing 1500 records: %v", err)
	}

	eng = open(t, home)
	fill(t, eng, 1500, 10, "yak")
	dry, err := eng.Forget(context.Background(), mneme.ForgetRequest{ForgetFilter: mneme.ForgetFilter{Project: "default"}, DryRun: true})
	ids := dry.IDs
	if err != nil || len(ids) != 1510 {
		t.Fatalf("dry run = %d, %v", len(ids), err)
	}
	if _, err := eng.Forget(context.Background(), mneme.ForgetRequest{IDs: ids[:3]}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, eng, "yak"); n != mneme.MaxK {
		t.Fatalf("recall = %d hits, want the cap %d", n, mneme.MaxK)
	}
	eng.Close()
	if after, _ := os.Stat(snap); !after.ModTime().Equal(info.ModTime()) {
		t.Fatal("a small write rewrote the snapshot")
	}
	check := func(label string) {
		t.Helper()
		eng := open(t, home)
		defer eng.Close()
		res, err := eng.Recall(context.Background(), mneme.Query{Text: "yak 1506", K: 1})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Record.Text != "yak note number 1506" {
			t.Fatalf("%s: recall = %+v, %v", label, res, err)
		}
		if st, _ := eng.Stats(context.Background()); st.Total != 1507 {
			t.Fatalf("%s: %d records", label, st.Total)
		}
		for _, id := range ids[:3] {
			if hits, _ := eng.Recall(context.Background(), mneme.Query{Text: "yak", K: mneme.MaxK}); containsID(hits, id) {
				t.Fatalf("%s: forgotten record %s still recalled", label, id)
			}
		}
	}
	check("stale snapshot")

	data, _ := os.ReadFile(snap)
	data[len(data)-5] ^= 0xff
	os.WriteFile(snap, data, 0o600)
	check("corrupt snapshot")

	other := t.TempDir()
	o := open(t, other)
	fill(t, o, 0, 1200, "yak")
	o.Close()
	foreign, _ := os.ReadFile(filepath.Join(other, sqlite.IndexFile))
	os.WriteFile(snap, foreign, 0o600)
	check("snapshot of another database")
}

func containsID(res *mneme.Result, id string) bool {
	for _, h := range res.Hits {
		if h.ID == id {
			return true
		}
	}
	return false
}

// TestConversationContext: a turn is found by the words of the turns beside
// it, and that context follows inserts, deletes and secrecy.
func TestConversationContext(t *testing.T) {
	ctx := context.Background()
	eng := open(t, t.TempDir())
	defer eng.Close()
	at := func(min int) *time.Time { v := time.Date(2026, 1, 1, 10, min, 0, 0, time.UTC); return &v }
	turn := func(text string, min int, sens mneme.Sensitivity) string {
		res, err := eng.Remember(ctx, []*mneme.Record{{Text: text, SessionID: "s1", OccurredAt: at(min), Sensitivity: sens}}, mneme.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res.ID
	}
	find := func(q string) []string {
		res, err := eng.Recall(ctx, mneme.Query{Text: q, K: 10, Mode: mneme.Lexical})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
	question := turn("Which pet do you have?", 0, "")
	answer := turn("Oscar, my guinea pig.", 1, "")
	if got := find("pet"); len(got) != 2 || got[0] != question || got[1] != answer {
		t.Fatalf("pet: %v, want the question then the answer %v", got, []string{question, answer})
	}
	if got := find("guinea"); len(got) != 2 || got[0] != answer { // the question is indexed with its answer too
		t.Fatalf("guinea: %v", got)
	}
	if _, err := eng.Forget(ctx, mneme.ForgetRequest{IDs: []string{question}}); err != nil {
		t.Fatal(err)
	}
	if got := find("pet"); len(got) != 0 {
		t.Fatalf("a deleted turn's words still find its neighbour: %v", got)
	}
	turn("my pet password is hunter2", 0, mneme.Secret)
	if got := find("hunter2"); len(got) != 0 {
		t.Fatalf("a secret turn's words leaked into its neighbour: %v", got)
	}
}
