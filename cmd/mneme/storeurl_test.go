package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreURLRefused: a connection string given as the store (--store,
// MNEME_STORE or store in config.json) is refused, exit 2, saying the
// DSN belongs in $MNEME_PG_DSN, without repeating it; nothing is written.
func TestStoreURLRefused(t *testing.T) {
	const password = "Pr0dPassw0rd"
	dsn := "postgres://app:" + password + "@127.0.0.1:1/prod"
	pgEnv := "MNEME_PG_DSN=postgres://mneme@127.0.0.1:1/mneme?connect_timeout=1"
	for _, c := range []struct {
		name, file string
		env        []string
		args       []string
	}{
		{"--store url", "", nil, []string{"--store", dsn}},
		{"--store postgresql url", "", nil, []string{"--store", "postgresql://app:" + password + "@db/prod"}},
		{"--store key=value", "", nil, []string{"--store", "postgres:host=db user=app password=" + password}},
		{"--store bare key=value", "", nil, []string{"--store", "host=db password=" + password}},
		{"--store sqlite url", "", nil, []string{"--store", "sqlite://" + t.TempDir()}},
		{"MNEME_STORE", "", []string{"MNEME_STORE=" + dsn}, nil},
		{"config.json", `{"store":"` + dsn + `"}`, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.file != "" {
				os.WriteFile(filepath.Join(home, "config.json"), []byte(c.file), 0o600)
			}
			args := append([]string{"remember", "a note", "--embedder", "hash"}, c.args...)
			r := mnemeEnv(t, home, "", append(c.env, pgEnv), args...)
			if r.code != 2 || !strings.Contains(r.stderr, "$MNEME_PG_DSN") || strings.Contains(r.stderr+r.stdout, password) {
				t.Fatalf("exit %d, stderr %s; want 2 saying the DSN belongs in $MNEME_PG_DSN, without it", r.code, r.stderr)
			}
			if ents, _ := os.ReadDir(home); len(ents) > 1 || len(ents) == 1 && c.file == "" {
				t.Fatalf("the refused write left files in the home: %v", ents)
			}
		})
	}
}
