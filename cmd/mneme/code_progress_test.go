package main

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestLineProgress: off a terminal, a line when indexing starts, at most
// one every 2 s, and always the last; nothing when nothing is stale.
func TestLineProgress(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type call struct {
		at          time.Duration
		done, total int
	}
	tests := []struct {
		name  string
		calls []call
		want  []string
	}{
		{"nothing stale", []call{{0, 0, 0}}, nil},
		{"fast: start and end only", []call{{0, 0, 250}, {time.Second, 100, 250}, {1500 * time.Millisecond, 200, 250}, {1900 * time.Millisecond, 250, 250}},
			[]string{"index: 250 files to read and embed", "index: 250/250 files (100%), 1.9s"}},
		{"slow: a line per 2 s", []call{{0, 0, 300}, {2 * time.Second, 100, 300}, {3 * time.Second, 200, 300}, {5 * time.Second, 300, 300}},
			[]string{"index: 300 files to read and embed", "index: 100/300 files (33%), 2s", "index: 300/300 files (100%), 5s"}},
		{"the end once", []call{{0, 0, 1}, {time.Second, 1, 1}, {2 * time.Second, 1, 1}},
			[]string{"index: 1 file to read and embed", "index: 1/1 files (100%), 1s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var now time.Time
			var got []string
			r := &lineProgress{now: func() time.Time { return now }, print: func(line string, done, total int, _ time.Duration) {
				got = append(got, line)
				if line == "" || done > total {
					t.Errorf("line %q for %d/%d", line, done, total)
				}
			}}
			for _, c := range tc.calls {
				now = t0.Add(c.at)
				r.report(c.done, c.total)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %s, want %s", fmt.Sprintf("%q", got), fmt.Sprintf("%q", tc.want))
			}
		})
	}
}
