package main_test

import (
	"strings"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	home := t.TempDir()
	want := ok(t, home, "version")
	if !strings.HasPrefix(want, "mneme ") {
		t.Fatalf("version = %q", want)
	}
	for _, flag := range []string{"--version", "-version", "-v"} {
		if got := ok(t, home, flag); got != want {
			t.Errorf("%s = %q, want %q", flag, got, want)
		}
	}
	if got := ok(t, home, "--version", "--json"); got != ok(t, home, "version", "--json") {
		t.Errorf("--version --json = %q", got)
	}
}
