package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBulkWritesReportRate: import, ingest and reindex say in their JSON
// how long they took and how many records per second they wrote.
func TestBulkWritesReportRate(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	var lines []string
	for _, text := range []string{"we deploy on Tuesdays", "Ada prefers small PRs", "the cache lives in Redis"} {
		lines = append(lines, `{"text":"`+text+`","project":"p"}`)
	}
	file := filepath.Join(dir, "in.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	docs := filepath.Join(dir, "docs")
	os.Mkdir(docs, 0o700)
	os.WriteFile(filepath.Join(docs, "a.md"), []byte("# Deploys\n\nWe deploy on Tuesdays after the review.\n"), 0o600)
	type rate struct {
		Seconds *float64 `json:"seconds"`
		Rate    *float64 `json:"records_per_second"`
	}
	for _, args := range [][]string{
		{"import", file, "--embedder", "none", "--json"},
		{"ingest", docs, "--embedder", "none", "--json"},
		{"reindex", "--embedder", "hash", "--json"}, // embeds the four
	} {
		r := decode[rate](t, ok(t, home, args...))
		if r.Seconds == nil || r.Rate == nil {
			t.Fatalf("%s --json lacks seconds or records_per_second", args[0])
		}
		if *r.Seconds <= 0 || *r.Rate <= 0 {
			t.Errorf("%s --json: seconds %v, records_per_second %v; want both > 0", args[0], *r.Seconds, *r.Rate)
		}
	}
}
