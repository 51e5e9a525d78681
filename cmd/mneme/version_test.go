package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	full := vcs("vcs", "git", "vcs.revision", "86df27658a6b7a6448705826004c2df8effebc56", "vcs.time", "2026-11-24T23:28:35Z", "vcs.modified", "false")
	cases := []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"v0.3.1", full, "v0.3.1"}, // go install …@v0.3.1
		{"v0.0.0-20261124232835-86df27658a6b+dirty", full, "v0.0.0-20261124232835-86df27658a6b+dirty"}, // go build in a checkout
		{"(devel)", full, "devel 86df276 2026-11-24"},
		{"(devel)", vcs("vcs.revision", "86df27658a6b", "vcs.time", "2026-11-24T23:28:35Z", "vcs.modified", "true"), "devel 86df276 2026-11-24 (dirty)"},
		{"(devel)", vcs("vcs.revision", "abc", "vcs.modified", "true"), "devel abc (dirty)"},
		{"(devel)", vcs("vcs.modified", "true"), "devel"}, // no revision: nothing to show
		{"(devel)", nil, "devel"},
		{"", nil, "devel"},
	}
	for _, c := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mneme-ai/mneme", Version: c.main}, Settings: c.settings}
		if got := versionOf(bi); got != c.want {
			t.Errorf("%q %v: %q, want %q", c.main, c.settings, got, c.want)
		}
	}
	if got := versionOf(nil); got != "devel" {
		t.Errorf("no build info: %q", got)
	}
}
