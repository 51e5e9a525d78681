package mneme

import (
	"errors"
	"testing"
	"time"
)

// TestCheckBase: a rewrite goes through only onto the version it read.
func TestCheckBase(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	read := &Record{ID: "r1", Text: "text", ContentHash: "h1", Kind: "note", UpdatedAt: at}
	later := *read
	later.UpdatedAt = at.Add(time.Millisecond)
	retagged := *read
	retagged.Tags = []string{"new"}
	for _, c := range []struct {
		name     string
		base     *Record
		existing *Record
		refused  bool
	}{
		{"not a rewrite", nil, read, false},
		{"not a rewrite of a new record", nil, nil, false},
		{"unchanged", read, read, false},
		{"changed at another time", read, &later, true},
		{"changed in the same instant", read, &retagged, true},
		{"forgotten meanwhile", read, nil, true},
	} {
		in := *read
		in.Title, in.base = "written back", c.base
		err := CheckBase(c.existing, &in)
		if refused := err != nil; refused != c.refused {
			t.Errorf("%s: %v, want refused %v", c.name, err, c.refused)
		}
		if err != nil && (ErrorCode(err) != ECONFLICT || !errors.Is(err, errChanged)) {
			t.Errorf("%s: %v is not a conflict to retry", c.name, err)
		}
	}
}
