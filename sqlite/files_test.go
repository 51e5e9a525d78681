package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// TestLostDatabase: a data directory whose database was deleted or
// truncated to nothing is refused with a message that says so and how to
// go on, not silently opened as a new empty home; a new directory, or an
// empty file in one that never held a database, opens as before.
func TestLostDatabase(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	open := func() (*sqlite.Store, error) { return sqlite.Open(ctx, home) }
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mneme.NewEngine(s).Remember(ctx, []*mneme.Record{{Text: "precious"}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, marker := filepath.Join(home, sqlite.FileName), filepath.Join(home, sqlite.MarkerFile)
	for _, lose := range []struct {
		how   func() error
		state string
	}{
		{func() error { return os.Truncate(db, 0) }, "is empty (0 bytes)"},
		{func() error { return os.Remove(db) }, "is missing"},
	} {
		if err := lose.how(); err != nil {
			t.Fatal(err)
		}
		_, err := open()
		msg := mneme.ErrorMessage(err)
		if mneme.ErrorCode(err) != mneme.EUNAVAILABLE || !strings.Contains(msg, db+" "+lose.state) || !strings.Contains(msg, "memories were lost") ||
			!strings.Contains(msg, "remove "+marker) || !strings.Contains(msg, "mneme import") {
			t.Fatalf("database %s: %v", lose.state, err)
		}
		if _, err := os.Stat(db); err == nil && lose.state == "is missing" {
			t.Fatal("the refused open created a database")
		}
	}
	// Removing the marker is starting anew.
	os.Remove(marker)
	s, err = open()
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(ctx, time.Now()); st.Total != 0 {
		t.Fatalf("a new database holds %d records", st.Total)
	}
	s.Close()
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the new database has no marker: %v", err)
	}
	// A directory with an empty database file and no marker never held one.
	fresh := t.TempDir()
	os.WriteFile(filepath.Join(fresh, sqlite.FileName), nil, 0o600)
	if s, err := sqlite.Open(ctx, fresh); err != nil {
		t.Fatalf("empty file in a new directory: %v", err)
	} else {
		s.Close()
	}
}

// TestMarkerBackfilled: a home made before the marker existed gets one on
// its next open.
func TestMarkerBackfilled(t *testing.T) {
	home := t.TempDir()
	s, err := sqlite.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	os.Remove(filepath.Join(home, sqlite.MarkerFile))
	if s, err = sqlite.Open(context.Background(), home); err != nil {
		t.Fatal(err)
	}
	s.Close()
	data, err := os.ReadFile(filepath.Join(home, sqlite.MarkerFile))
	if err != nil || !strings.Contains(string(data), `"db_id":"`) {
		t.Fatalf("marker = %q, %v", data, err)
	}
}
