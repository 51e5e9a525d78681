package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestParse: flags and positional arguments in any order; after "--"
// everything is positional; text that looks like a flag gets a hint.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		pos     []string
		json    bool
		title   string
		project string
		err     string // a substring of the error; "" for none
	}{
		{"text", []string{"a note"}, []string{"a note"}, false, "", "default", ""},
		{"any order", []string{"a", "--project", "p", "b", "--json"}, []string{"a", "b"}, true, "", "p", ""},
		{"stdin", []string{"-", "--json"}, []string{"-"}, true, "", "default", ""},
		{"-- then a bullet", []string{"--", "- a bullet"}, []string{"- a bullet"}, false, "", "default", ""},
		{"flags before --", []string{"--json", "--project", "p", "--", "- a bullet"}, []string{"- a bullet"}, true, "", "p", ""},
		{"after -- flags are text", []string{"--", "- a bullet", "--json", "--project", "p"}, []string{"- a bullet", "--json", "--project", "p"}, false, "", "default", ""},
		{"-- after text", []string{"first", "--json", "--", "--project"}, []string{"first", "--project"}, true, "", "default", ""},
		{"-- twice", []string{"--", "a", "--", "b"}, []string{"a", "--", "b"}, false, "", "default", ""},
		{"-- as a flag's value", []string{"--title", "--", "text", "--json"}, []string{"text"}, true, "--", "default", ""},
		{"-- as a value, then --", []string{"--title", "--", "--", "--json"}, []string{"--json"}, false, "--", "default", ""},
		{"-- after a bool flag", []string{"--json", "--", "-x"}, []string{"-x"}, true, "", "default", ""},
		{"flag=value then --", []string{"--title=t", "--", "-x"}, []string{"-x"}, false, "t", "default", ""},
		{"a bullet", []string{"- a bullet"}, nil, false, "", "", `flag provided but not defined: - a bullet: to store text that starts with -, put -- before it: mneme remember -- "- a bullet"`},
		{"a negative number", []string{"--json", "-5 degrees outside"}, nil, true, "", "", `put -- before it: mneme remember -- "-5 degrees outside"`},
		{"two dashes and text", []string{"-- not a flag"}, nil, false, "", "", `mneme remember -- "-- not a flag"`},
		{"a typo", []string{"x", "--colour"}, nil, false, "", "", "flag provided but not defined: -colour: run `mneme remember -h` for the flags"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := &app{name: "remember"}
			fs := a.flags()
			title := fs.String("title", "", "")
			project := fs.String("project", "default", "")
			pos, err := a.parse(fs, c.args)
			if c.err != "" {
				if err == nil || !strings.Contains(mneme.ErrorMessage(err), c.err) || a.json != c.json {
					t.Fatalf("parse(%q) = %q, %v (json %v); want an error with %q", c.args, pos, err, a.json, c.err)
				}
				if strings.Contains(c.name, "typo") && strings.Contains(err.Error(), "put --") {
					t.Fatalf("a typo gets the text hint: %v", err)
				}
				return
			}
			if err != nil || !slices.Equal(pos, c.pos) || a.json != c.json || *title != c.title || *project != c.project {
				t.Fatalf("parse(%q) = %q, %v, json %v, title %q, project %q; want %q, json %v, title %q, project %q",
					c.args, pos, err, a.json, *title, *project, c.pos, c.json, c.title, c.project)
			}
		})
	}
	a := &app{name: "recall"}
	if _, err := a.parse(a.flags(), []string{"- a bullet"}); err == nil || !strings.Contains(err.Error(), "to search for text that starts with -") {
		t.Errorf("recall's hint: %v", err)
	}
}
