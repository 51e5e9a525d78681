package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestThirdPartyNotices: the table in docs/third-party-notices.md of third-party modules is the
// list of modules compiled into the binary (as `go version -m` reads it from
// the binary), no more and no fewer, and each licence it names is the one
// in that module's LICENSE file in the module cache.
func TestThirdPartyNotices(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	built := map[string]string{} // module path → its source in the module cache, path@version
	last := ""
	for line := range strings.SplitSeq(string(out), "\n") {
		switch f := strings.Fields(line); {
		case len(f) >= 3 && f[0] == "dep":
			last = f[1]
			built[last] = escapeModulePath(f[1]) + "@" + f[2]
		case len(f) >= 2 && f[0] == "=>" && last != "": // the dep above is replaced
			built[last] = escapeModulePath(f[1])
			if len(f) >= 3 && !strings.HasPrefix(f[1], ".") && !filepath.IsAbs(f[1]) {
				built[last] += "@" + f[2]
			}
		}
	}
	if len(built) == 0 {
		t.Fatalf("no dependencies in go version -m output:\n%s", out)
	}

	notices, err := os.ReadFile("../../docs/third-party-notices.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(notices), "# Third-party notices\n")
	if !found {
		t.Fatal("docs/third-party-notices.md has no \"# Third-party notices\" heading")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+) \\|")
	listed := map[string]string{} // module path → licence cell
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		if _, dup := listed[m[1]]; dup {
			t.Errorf("docs/third-party-notices.md lists %s twice", m[1])
		}
		listed[m[1]] = strings.TrimSpace(m[2])
	}
	for p := range built {
		if _, ok := listed[p]; !ok {
			t.Errorf("%s is compiled into mneme but missing from docs/third-party-notices.md", p)
		}
	}
	for p := range listed {
		if _, ok := built[p]; !ok {
			t.Errorf("docs/third-party-notices.md lists %s, which is not compiled into mneme", p)
		}
	}

	// Each licence the notices name must be in the module's LICENSE file.
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	for p, licence := range listed {
		src, ok := built[p]
		if !ok {
			continue
		}
		dir := src
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(strings.TrimSpace(string(cache)), src)
		}
		var text []byte
		for _, name := range []string{"LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING"} {
			if text, err = os.ReadFile(filepath.Join(dir, name)); err == nil {
				break
			}
		}
		if err != nil {
			t.Logf("%s: no LICENSE to check (%v)", p, err)
			continue
		}
		found := licences(string(text))
		for _, l := range strings.Split(licence, ", ") {
			if !slices.Contains(found, l) {
				t.Errorf("%s: docs/third-party-notices.md says %s, its LICENSE file reads as %v", p, l, found)
			}
		}
	}
}

// licences classifies a LICENSE file's text by the licences it contains.
func licences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	if strings.Contains(text, "Apache License Version 2.0") {
		out = append(out, "Apache-2.0")
	}
	if strings.Contains(text, "Permission is hereby granted, free of charge, to any person obtaining a copy") {
		out = append(out, "MIT")
	}
	if strings.Contains(text, "Redistribution and use in source and binary forms") {
		if strings.Contains(text, "Neither the name") {
			out = append(out, "BSD-3-Clause")
		} else {
			out = append(out, "BSD-2-Clause")
		}
	}
	return out
}

// escapeModulePath is a module path as the module cache spells it: each
// upper-case letter becomes ! and its lower case.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
