package skips_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

func TestMain(m *testing.M) { skips.Main(m) }

func TestReport(t *testing.T) {
	pg := skips.Entry{Enable: "MNEME_TEST_PG_DSN", Reason: "no server"}
	tests := []struct {
		name string
		list []skips.Entry
		want string
	}{
		{"one", []skips.Entry{{"TestA", "MNEME_X=1", "needs x"}},
			"SKIPPED 1 in ./p (how to run them: docs/development.md):\n  needs x (enable: MNEME_X=1): TestA\n"},
		{"platform", []skips.Entry{{"TestB", "", "no /dev/zero"}},
			"SKIPPED 1 in ./p (how to run them: docs/development.md):\n  no /dev/zero (the platform lacks it): TestB\n"},
		{"grouped by reason, long lists counted", []skips.Entry{
			with(pg, "T1"), {"TestX", "MNEME_X=1", "needs x"}, with(pg, "T2"), with(pg, "T3"), with(pg, "T4"), with(pg, "T5"), with(pg, "T6")},
			"SKIPPED 7 in ./p (how to run them: docs/development.md):\n" +
				"  no server (enable: MNEME_TEST_PG_DSN): T1, T2, T3, T4 and 2 more\n" +
				"  needs x (enable: MNEME_X=1): TestX\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := skips.Report("./p", tc.list); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func with(e skips.Entry, test string) skips.Entry {
	e.Test = test
	return e
}

const fixtureReport = "SKIPPED 1 in ./internal/skips/testdata/fixture (how to run them: docs/development.md):\n" +
	"  no server to talk to (enable: MNEME_FIXTURE_SERVER): TestNeedsAServer\n"

// TestSeenWithoutVerbose runs `go test` on a package that skips a test, as
// a person runs `go test ./...`: go keeps a passing package's output to
// itself, so the list reaches the log file (CI) and the terminal.
func TestSeenWithoutVerbose(t *testing.T) {
	log := filepath.Join(t.TempDir(), "skips.log")
	cmd := exec.Command("go", "test", "-count=1", "./internal/skips/testdata/fixture")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), skips.EnvLog+"="+log, "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok  \tgithub.com/mneme-ai/mneme/internal/skips/testdata/fixture") {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "SKIPPED") {
		t.Errorf("go test showed a passing package's output; the tty detour may no longer be needed:\n%s", out)
	}
	if got, _ := os.ReadFile(log); string(got) != fixtureReport {
		t.Errorf("%s holds %q, want %q", skips.EnvLog, got, fixtureReport)
	}

	// On a terminal (script provides one), the list comes before "ok".
	if _, err := exec.LookPath("script"); err != nil {
		skips.Skip(t, "install `script` (util-linux)", "no `script` to provide a terminal")
	}
	cmd = exec.Command("script", "-qec", "go test -count=1 ./internal/skips/testdata/fixture", "/dev/null")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), skips.EnvLog+"=", "GOFLAGS=")
	out, err = cmd.CombinedOutput()
	got := strings.ReplaceAll(string(out), "\r\n", "\n")
	if err != nil || !strings.Contains(got, fixtureReport+"ok  \t") {
		t.Errorf("on a terminal: %v, want the list before the ok line:\n%s", err, got)
	}
}
