package main_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/embed/minilm"
)

// docsOrder is the order the docs' examples run in, sharing one data
// directory: later files use records the earlier ones store (cli.md ingests
// the handbook that context.md and cache.md ask about). A file not listed
// runs after these, in name order.
var docsOrder = []string{"cli.md", "embedders.md", "context.md", "cache.md"}

// TestReadmeExamples runs every ```sh block of the README and of docs/*.md,
// line by line and in order, so every command and flag they show works as
// shown. A ```text block right after a ```sh block is that block's output
// and must match it, ids and dates aside. A line ending in & starts a
// process that runs until the test ends (mneme serve). HOME is an empty
// directory, so the README runs as on a new machine (its data in
// ~/.local/share/mneme) and `mneme setup` writes nowhere real; the model
// comes from where it is installed.
func TestReadmeExamples(t *testing.T) {
	t.Run("README.md", func(t *testing.T) {
		blocks := exampleBlocks(t, "../../README.md")
		if n := countLines(blocks); n < 10 {
			t.Fatalf("found only %d example lines in the README", n)
		}
		// .ci/run runs the README's two set-up commands as written there.
		readme, _ := os.ReadFile("../../README.md")
		if _, err := os.Stat("../../LICENSE"); err != nil || !strings.Contains(string(readme), "(LICENSE)") {
			t.Errorf("the README must link the LICENSE file, which must exist (%v)", err)
		}
		for _, c := range []string{"\n./quickstart\n", "\ngo test ./...\n"} {
			if !strings.Contains(string(readme), c) {
				t.Errorf("the README no longer shows %q, which .ci/run runs", strings.TrimSpace(c))
			}
		}
		dir := t.TempDir()
		runBlocks(t, "README.md", dir, exampleEnv(dir, ""), blocks)
	})
	t.Run("docs", func(t *testing.T) {
		dir := t.TempDir()
		writeFixtures(t, dir)
		env := exampleEnv(dir, filepath.Join(dir, "home"))
		total := 0
		for _, name := range docsFiles(t) {
			blocks := exampleBlocks(t, filepath.Join("../../docs", name))
			total += countLines(blocks)
			runBlocks(t, "docs/"+name, dir, env, blocks)
		}
		if total < 60 {
			t.Fatalf("found only %d example lines in docs/", total)
		}
	})
}

// docsFiles lists docs/*.md: docsOrder first, then the rest by name.
func docsFiles(t *testing.T) []string {
	paths, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	rank := map[string]int{}
	for i, n := range docsOrder {
		rank[n] = i - len(docsOrder)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank[names[i]], rank[names[j]]
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	return names
}

// exampleBlock is one ```sh block and, when a ```text block follows it,
// the output it must print.
type exampleBlock struct {
	line  int // of the opening fence
	cmds  []string
	want  string
	check bool
}

func exampleBlocks(t *testing.T, path string) []exampleBlock {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []exampleBlock
	var cur *exampleBlock
	var out []string
	open, fence, lastClosed := false, "", "" // the open fence and its info string; the last closed one
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case !open && strings.HasPrefix(line, "```"):
			open, fence = true, strings.TrimPrefix(line, "```")
			if fence == "sh" {
				blocks = append(blocks, exampleBlock{line: n})
				cur = &blocks[len(blocks)-1]
			} else if fence == "text" && lastClosed == "sh" {
				out = []string{}
			}
		case open && line == "```":
			if fence == "text" && out != nil {
				cur.want, cur.check, out = strings.Join(out, "\n"), true, nil
			}
			open, lastClosed, fence = false, fence, ""
		case fence == "sh" && strings.TrimSpace(line) != "":
			cur.cmds = append(cur.cmds, line)
		case fence == "text" && out != nil:
			out = append(out, line)
		case !open && strings.TrimSpace(line) != "":
			lastClosed = "" // prose between: the text block is not output
		}
	}
	return blocks
}

func countLines(blocks []exampleBlock) (n int) {
	for _, b := range blocks {
		n += len(b.cmds)
	}
	return n
}

// exampleEnv is the examples' environment: HOME in dir, the installed model,
// and MNEME_HOME when home is not empty.
func exampleEnv(dir, home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "MNEME_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "PATH":
			continue
		}
		env = append(env, kv)
	}
	if os.Getenv("MNEME_MODEL_DIR") == "" {
		env = append(env, "MNEME_MODEL_DIR="+minilm.DefaultDir(os.Getenv))
	}
	if home != "" {
		env = append(env, "MNEME_HOME="+home)
	}
	return append(env, "HOME="+dir, "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	dateRE = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
)

// comparable hides what differs between runs: ids, dates, trailing spaces.
func comparable(s string) string {
	s = dateRE.ReplaceAllString(uuidRE.ReplaceAllString(s, "ID"), "DATE")
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.Join(lines, "\n")
}

func runBlocks(t *testing.T, file, dir string, env []string, blocks []exampleBlock) {
	t.Helper()
	for _, b := range blocks {
		var got bytes.Buffer
		for _, line := range b.cmds {
			if bg, ok := strings.CutSuffix(strings.TrimSpace(line), "&"); ok {
				startBackground(t, file, dir, env, bg)
				continue
			}
			cmd := exec.Command("bash", "-o", "pipefail", "-c", line)
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s:%d: example failed: %s\n%v\n%s", file, b.line, line, err, out)
			}
			got.Write(out)
		}
		if b.check && comparable(got.String()) != comparable(b.want) {
			t.Errorf("%s:%d: the output shown is not what the commands print (ids and dates aside)\n--- shown:\n%s\n--- printed:\n%s", file, b.line, b.want, got.String())
		}
	}
}

// startBackground starts line in its own process group, waits for its
// first output (a server says it is serving), and ends it with the test.
func startBackground(t *testing.T, file, dir string, env []string, line string) {
	t.Helper()
	out := &lockedBuffer{}
	cmd := exec.Command("bash", "-c", "exec "+line)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, out, out
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %s: %v", file, line, err)
	}
	t.Cleanup(func() {
		endGroup(cmd)
		cmd.Wait()
	})
	for deadline := time.Now().Add(20 * time.Second); out.Len() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s printed nothing in 20 s", file, line)
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// writeFixtures writes the files the docs' examples read.
func writeFixtures(t *testing.T, dir string) {
	files := map[string]string{
		"docs/deploy.md":  "# Deploy\n\nWe deploy on Tuesdays.\n\n## Rollback\n\nRevert the tag.\n",
		"docs/oncall.txt": "The on-call rotation changes on Mondays.\n",
		"queries.txt":     "how do we deploy\nrollback\n",
		"request.json":    `{"query":"deploy","project":"handbook","k":3,"explain":true}`,
		"queries.jsonl":   "{\"id\":\"q1\",\"query\":\"rate limit\"}\n{\"id\":\"q2\",\"query\":\"rollback\",\"project\":\"handbook\"}\n",
		"decision.jsonl":  `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5f","project":"ops","type":"semantic","kind":"decision","text":"We test a restore from the nightly backup every quarter","created_at":"2026-01-02T00:00:00Z","updated_at":"2026-01-02T00:00:00Z","status":"active","sensitivity":"internal"}` + "\n",
		"backup.jsonl":    `{"id":"0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e","project":"ops","type":"semantic","text":"Backups run nightly at 02:00 UTC","tags":["backup"],"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","status":"active","sensitivity":"internal"}` + "\n",
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	// The importers' fixtures, for the import --from examples.
	err := filepath.WalkDir("../../importers/testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel("../..", p)
			b, _ := os.ReadFile(p)
			os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
			os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
