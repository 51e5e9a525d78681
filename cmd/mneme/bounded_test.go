package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBoundedErrors: a huge bad value (a project name, a tag, a time, a
// flag) gives an error that quotes at most the start of it. One command
// line argument is limited to 128 KiB by the kernel, so the megabyte
// values travel in files.
func TestBoundedErrors(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "--embedder", "hash", "a home for the reads to open")
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	arg := strings.Repeat("x", 100<<10) // under the kernel's limit for one argument
	mb := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"project flag", []string{"remember", "text", "--project", arg}, "is not a valid name"},
		{"tag flag", []string{"remember", "text", "--tags", arg}, "is longer than"},
		{"time flag", []string{"remember", "text", "--at", arg}, "is not a time"},
		{"ttl flag", []string{"remember", "text", "--ttl", arg}, "is not a positive duration"},
		{"type flag", []string{"remember", "text", "--type", arg}, "is not valid"},
		{"recall since", []string{"recall", "text", "--since", arg}, "is not a time"},
		{"forget before", []string{"forget", "--before", arg}, "is not a time"},
		{"get id", []string{"get", arg}, "is not a record id"},
		{"list cursor", []string{"list", "--cursor", arg}, "cursor"},
		{"unknown flag", []string{"recall", "x", "--" + arg}, "flag provided but not defined"},
		{"bad flag value", []string{"recall", "x", "--k", arg}, "invalid value"},
		{"stray argument", []string{"stats", arg}, "no arguments, only flags"},
		{"unknown command", []string{arg}, "unknown command"},
		{"request project", []string{"recall", "--request", file("p.json", `{"query":"x","project":"`+mb+`"}`)}, "is not a valid name"},
		{"request since", []string{"recall", "--request", file("s.json", `{"query":"x","since":"`+mb+`"}`)}, "is not a time"},
		{"request unknown field", []string{"recall", "--request", file("f.json", `{"query":"x","`+mb+`":1}`)}, "unknown field"},
		{"request wrong type", []string{"recall", "--request", file("k.json", `{"query":"x","k":1`+strings.Repeat("0", 1<<20)+`}`)}, "must be a number"},
		{"import project", []string{"import", file("i1.jsonl", `{"text":"x","project":"`+mb+`"}`)}, "is not a valid name"},
		{"import tag", []string{"import", file("i2.jsonl", `{"text":"x","tags":["`+mb+`"]}`)}, "is longer than"},
		{"import time", []string{"import", file("i3.jsonl", `{"text":"x","created_at":"`+mb+`"}`)}, "is not RFC 3339"},
		{"import id", []string{"import", file("i4.jsonl", `{"text":"x","id":"`+mb+`"}`)}, "is not a UUID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, json := range []bool{false, true} {
				args := c.args
				if json {
					args = append(args[:len(args):len(args)], "--json")
				}
				r := mneme(t, home, "", args...)
				if r.code != 2 || !strings.Contains(r.stderr, c.want) {
					t.Fatalf("exit %d, want 2 and %q: %.300s", r.code, c.want, r.stderr)
				}
				if len(r.stderr) > 1024 {
					t.Fatalf("a %d-byte error (want under 1 KB): %.300s…", len(r.stderr), r.stderr)
				}
			}
		})
	}
}
