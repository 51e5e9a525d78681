package main_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs every ```sh block of the README, line by line and
// in order, so every command and flag it shows works as shown.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(string(readme)))
	for sc.Scan() {
		switch line := sc.Text(); {
		case line == "```sh":
			in = true
		case line == "```":
			in = false
		case in && strings.TrimSpace(line) != "":
			lines = append(lines, line)
		}
	}
	if len(lines) < 20 {
		t.Fatalf("found only %d example lines in the README", len(lines))
	}
	dir := t.TempDir()
	files := map[string]string{
		"docs/deploy.md":  "# Deploy\n\nWe deploy on Tuesdays.\n\n## Rollback\n\nRevert the tag.\n",
		"docs/oncall.txt": "The on-call rotation changes on Mondays.\n",
		"queries.txt":     "how do we deploy\nrollback\n",
		"request.json":    `{"query":"deploy","project":"handbook","k":3,"explain":true}`,
		"queries.jsonl":   "{\"id\":\"q1\",\"query\":\"rate limit\"}\n{\"id\":\"q2\",\"query\":\"rollback\",\"project\":\"handbook\"}\n",
		"backup.jsonl":    `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","project":"ops","type":"semantic","text":"Backups run nightly at 02:00 UTC","tags":["backup"],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","status":"active","sensitivity":"internal"}` + "\n",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	// The importers' fixtures, for the import --from examples.
	filepath.WalkDir("../../importers/testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("../..", p)
			b, _ := os.ReadFile(p)
			os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
			os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		}
		return err
	})
	env := append(os.Environ(), "MNEME_HOME="+filepath.Join(dir, "home"), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	for _, line := range lines {
		cmd := exec.Command("bash", "-o", "pipefail", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("README example failed: %s\n%v\n%s", line, err, out)
		}
	}
}
