package main_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpFlags: every command's -h names each flag's value with one
// word (a back-quoted phrase in a usage string would become the name),
// `mneme help CMD` is CMD's help, and commands that take no home do not
// list --store (nor --home, but model fetch reads the home's config.json).
func TestHelpFlags(t *testing.T) {
	home := t.TempDir()
	var cmds [][]string
	for _, l := range strings.Split(ok(t, home, "help"), "\n") {
		if m := regexp.MustCompile(`^  ([a-z]+) `).FindStringSubmatch(l); m != nil {
			cmds = append(cmds, []string{m[1]})
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("help lists %d commands", len(cmds))
	}
	cmds = append(cmds, []string{"model", "fetch"})
	flagLine := regexp.MustCompile(`^  --(\S+)(?: (.*))?$`)
	for _, c := range cmds {
		r := mneme(t, home, "", append(c, "-h")...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: mneme "+strings.Join(c, " ")) {
			t.Errorf("%v -h: exit %d, %q", c, r.code, r.stdout)
			continue
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if m := flagLine.FindStringSubmatch(l); m != nil && !regexp.MustCompile(`^[A-Za-z_.]*$`).MatchString(m[2]) {
				t.Errorf("%v -h: flag --%s has the value name %q", c, m[1], m[2])
			}
		}
		// version uses no home; model fetch reads only the home's
		// config.json (model_dir), and says so.
		switch fetch := len(c) == 2 && c[1] == "fetch"; {
		case (c[0] == "version" || fetch) && strings.Contains(r.stdout, "\n  --store "):
			t.Errorf("%v -h lists --store, which it does not take:\n%s", c, r.stdout)
		case c[0] == "version" && strings.Contains(r.stdout, "\n  --home "):
			t.Errorf("version -h lists --home, which it does not take:\n%s", r.stdout)
		case fetch && !strings.Contains(r.stdout, "the data directory whose config.json may set model_dir"):
			t.Errorf("model fetch -h does not say what --home is for:\n%s", r.stdout)
		}
		if got := mneme(t, home, "", append([]string{"help"}, c...)...); got.stdout != r.stdout || got.code != 0 {
			t.Errorf("mneme help %s: exit %d, %.200q; want %v -h's help", strings.Join(c, " "), got.code, got.stdout, c)
		}
	}
}
