package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// hostFiles are where each host keeps its hooks and MCP servers (user
// level), the events mneme hooks, and the keys a handler may have: the
// documented shapes the produced configuration is checked against.
var hostFiles = []struct {
	host, hooks, mcp string
	events           []string
	handlerKeys      []string
	flat             bool
}{
	{"claude-code", ".claude/settings.json", ".claude.json",
		[]string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd"},
		[]string{"command", "timeout", "type"}, false},
	{"codex", ".codex/hooks.json", ".codex/config.toml",
		[]string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact"},
		[]string{"command", "timeout", "type"}, false}, // Codex refuses any other key
	{"gemini", ".gemini/settings.json", ".gemini/settings.json",
		[]string{"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"},
		[]string{"command", "name", "timeout", "type"}, false},
	{"cursor", ".cursor/hooks.json", ".cursor/mcp.json",
		[]string{"sessionStart", "beforeSubmitPrompt", "postToolUse", "postToolUseFailure", "stop", "sessionEnd", "preCompact"},
		[]string{"command"}, true},
}

// userHooks is a hooks file with the user's own hook and settings.
func userHooks(host string, flat bool) string {
	ev := "Stop"
	if flat {
		return `{"version":1,"hooks":{"stop":[{"command":"./notify.sh"}]}}`
	}
	if host == "gemini" {
		ev = "AfterAgent"
	}
	return `{"theme":"dark","hooks":{"` + ev + `":[{"hooks":[{"type":"command","command":"./notify.sh"}]}]}}`
}

func TestSetupHosts(t *testing.T) {
	for _, h := range hostFiles {
		t.Run(h.host, func(t *testing.T) {
			home, user := t.TempDir(), t.TempDir()
			env := []string{"HOME=" + user}
			path := filepath.Join(user, h.hooks)
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(userHooks(h.host, h.flat)), 0o644)
			if h.host == "codex" {
				os.WriteFile(filepath.Join(user, h.mcp), []byte("model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"), 0o644)
			}
			before := readAll(t, user)
			dry := mnemeEnv(t, home, "", env, "setup", h.host, "--dry-run")
			if dry.code != 0 || !strings.Contains(dry.stdout, " hook "+h.host+" --home ") || !reflect.DeepEqual(readAll(t, user), before) {
				t.Fatalf("dry run: exit %d %s %s, or it wrote", dry.code, dry.stdout, dry.stderr)
			}
			for i := 0; i < 2; i++ { // twice: the same files
				if r := mnemeEnv(t, home, "", env, "setup", h.host); r.code != 0 {
					t.Fatalf("setup: exit %d %s", r.code, r.stderr)
				}
			}
			checkHooks(t, h.host, h.events, h.handlerKeys, h.flat, path)
			mcp, _ := os.ReadFile(filepath.Join(user, h.mcp))
			if !strings.Contains(string(mcp), `"mneme"`) && !strings.Contains(string(mcp), "[mcp_servers.mneme]") {
				t.Errorf("no MCP server in %s:\n%s", h.mcp, mcp)
			}
			if h.host == "codex" && (!strings.Contains(string(mcp), "[mcp_servers.docs]") || strings.Count(string(mcp), "[mcp_servers.mneme]") != 1) {
				t.Errorf("config.toml merge:\n%s", mcp)
			}
			if r := mnemeEnv(t, home, "", env, "setup", h.host, "--remove"); r.code != 0 {
				t.Fatalf("remove: exit %d %s", r.code, r.stderr)
			}
			after := readAll(t, user)
			for p, b := range after {
				if strings.Contains(b, " hook ") || strings.Contains(b, "mneme") {
					t.Errorf("%s still names mneme after --remove:\n%s", p, b)
				}
			}
			if !sameJSON(after[h.hooks], before[h.hooks]) {
				t.Errorf("--remove did not restore the user's hooks:\n%s\nwant\n%s", after[h.hooks], before[h.hooks])
			}
		})
	}
}

// checkHooks checks the hooks file: one mneme handler per event, in the
// documented shape, and the user's own hook kept.
func checkHooks(t *testing.T, host string, events, keys []string, flat bool, path string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	var f struct {
		Version *int                                    `json:"version"`
		Hooks   map[string][]map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if flat && (f.Version == nil || *f.Version != 1) {
		t.Errorf("cursor hooks.json without version 1")
	}
	own := 0
	for _, ev := range events {
		n := 0
		for _, g := range f.Hooks[ev] {
			handlers := []map[string]json.RawMessage{g}
			if !flat {
				handlers = nil
				json.Unmarshal(g["hooks"], &handlers)
			}
			for _, hd := range handlers {
				cmd := string(hd["command"])
				if strings.Contains(cmd, "notify.sh") {
					own++
					continue
				}
				n++
				if !strings.Contains(cmd, " hook "+host+" --home ") || !reflect.DeepEqual(sortedKeys(hd), keys) {
					t.Errorf("%s handler %v, want keys %v", ev, hd, keys)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d mneme handlers, want 1", ev, n)
		}
	}
	if own != 1 {
		t.Errorf("the user's own hook: %d copies, want 1:\n%s", own, b)
	}
}

// TestSetupRefusesBadFile: a settings file that is not JSON is left alone.
func TestSetupRefusesBadFile(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	p := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("{ // a comment\n}"), 0o644)
	r := mneme(t, home, "", "setup", "claude-code", "--project-dir", project)
	b, _ := os.ReadFile(p)
	if r.code != 2 || !strings.Contains(r.stderr, "cannot merge") || string(b) != "{ // a comment\n}" {
		t.Errorf("exit %d %s; file now %q", r.code, r.stderr, b)
	}
	if r := mneme(t, home, "", "setup", "emacs"); r.code != 2 || !strings.Contains(r.stderr, "unknown host") {
		t.Errorf("unknown host: exit %d %s", r.code, r.stderr)
	}
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}
