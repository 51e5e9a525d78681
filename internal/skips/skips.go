// Package skips makes a skipped test say so without -v. A test skips
// through Skip, naming what would run it; the package's TestMain calls
// Main, which prints the list after the tests.
//
// `go test ./...` (package list mode) keeps a passing package's output to
// itself unless -v is given, so the list goes where a person sees it: to
// standard output when that is a terminal or -v is on, otherwise to the
// controlling terminal (/dev/tty) when there is one, or, when
// MNEME_TEST_SKIP_LOG names a file, appended to it instead (CI has no
// terminal). A package whose result is cached prints nothing again:
// -count=1 reruns it.
// docs/development.md lists every skip and how to enable it.
package skips

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// EnvLog names the variable holding a file the lists are appended to.
const EnvLog = "MNEME_TEST_SKIP_LOG"

// Skip records that tb is skipped, why, and what enables it (a variable, a
// file, a tool to install; "" for what the platform lacks), then skips it.
func Skip(tb testing.TB, enable, reason string) {
	tb.Helper()
	record(tb.Name(), enable, reason)
	if enable != "" {
		tb.Skip(reason + "; enable: " + enable)
	}
	tb.Skip(reason)
}

// Entry is one skipped test.
type Entry struct {
	Test, Enable, Reason string
}

var (
	mu      sync.Mutex
	skipped []Entry
)

func record(test, enable, reason string) {
	mu.Lock()
	defer mu.Unlock()
	skipped = append(skipped, Entry{test, enable, reason})
}

// Main runs the package's tests, prints what they skipped and exits with
// their status: func TestMain(m *testing.M) { skips.Main(m) }.
func Main(m *testing.M) {
	os.Exit(Run(m))
}

// Run runs the tests and prints what they skipped, returning m.Run's
// status; for a TestMain with more to do around it.
func Run(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	list := skipped
	mu.Unlock()
	if len(list) > 0 {
		publish(Report(pkgDir(), list))
	}
	return code
}

// Report words the list: one line per reason, the tests it skipped.
func Report(pkg string, list []Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "SKIPPED %d in %s (how to run them: docs/development.md):\n", len(list), pkg)
	type group struct {
		enable, reason string
		tests          []string
	}
	var groups []*group
	at := map[[2]string]*group{}
	for _, e := range list {
		k := [2]string{e.Enable, e.Reason}
		g := at[k]
		if g == nil {
			g = &group{enable: e.Enable, reason: e.Reason}
			at[k] = g
			groups = append(groups, g)
		}
		g.tests = append(g.tests, e.Test)
	}
	for _, g := range groups {
		enable := "the platform lacks it"
		if g.enable != "" {
			enable = "enable: " + g.enable
		}
		fmt.Fprintf(&b, "  %s (%s): %s\n", g.reason, enable, names(g.tests))
	}
	return b.String()
}

// names lists the first few tests and counts the rest.
func names(tests []string) string {
	const shown = 4
	if len(tests) <= shown {
		return strings.Join(tests, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(tests[:shown], ", "), len(tests)-shown)
}

// publish writes the report where it will be seen (see the package
// comment).
func publish(report string) {
	// Standard output is shown with -v, on a terminal, or if the package
	// fails.
	io.WriteString(os.Stdout, report)
	if path := os.Getenv(EnvLog); path != "" {
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
			io.WriteString(f, report)
			f.Close()
		}
		return
	}
	if testing.Verbose() || isTerminal(os.Stdout) {
		return
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		io.WriteString(tty, report)
		tty.Close()
	}
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// pkgDir names the package under test by its directory in the module (a
// test binary runs in its package's directory).
func pkgDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "this package"
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "the module's root package"
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}
