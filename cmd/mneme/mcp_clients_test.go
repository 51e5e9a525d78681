package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/skips"
)

// TestMCPRealClients runs the official TypeScript SDK client
// (e2e/mcp/client.mjs) and the MCP Inspector CLI against `mneme mcp` over
// stdio and `mneme serve` over streamable HTTP. .ci/run installs them
// (npm install in e2e/mcp) and sets MNEME_E2E_CLIENTS=1, so there a missing
// install fails instead of skipping.
func TestMCPRealClients(t *testing.T) {
	dir, _ := filepath.Abs("../../e2e/mcp")
	nodeBin := filepath.Join(dir, "node_modules", ".bin")
	if _, err := os.Stat(filepath.Join(nodeBin, "node")); err != nil {
		if os.Getenv("MNEME_E2E_CLIENTS") != "" {
			t.Fatalf("MNEME_E2E_CLIENTS is set but the clients are not installed: %v", err)
		}
		skips.Skip(t, "npm install in e2e/mcp (MNEME_E2E_CLIENTS=1 then requires it)", "the real MCP clients are not installed")
	}
	env := append(os.Environ(), "PATH="+nodeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "catalog.json"))
	client := func(wantOK bool, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(nodeBin, name), args...) // not looked up in this process's PATH
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("%s %s: err %v (want ok %v)\n%s", name, strings.Join(args, " "), err, wantOK, out)
		}
		return string(out)
	}
	inspector := func(wantOK bool, args ...string) string {
		return client(wantOK, "mcp-inspector", append([]string{"--cli"}, args...)...)
	}

	stdioHome := t.TempDir()
	env = append(env, "MNEME_HOME="+stdioHome)
	client(true, "node", "client.mjs", "stdio", bin)
	server := []string{"-e", "MNEME_HOME=" + stdioHome, bin, "mcp"}
	if out := inspector(true, append(server, "--method", "tools/list")...); !strings.Contains(out, `"recall"`) || strings.Contains(out, `"summarize"`) {
		t.Fatalf("inspector tools/list over stdio (the default tools):\n%s", out)
	}
	out := inspector(true, append(server, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", "query=postgres staging", "--tool-arg", "project=e2e")...)
	if !strings.Contains(out, "Postgres 17") {
		t.Fatalf("inspector recall over stdio:\n%s", out)
	}
	inspector(false, append(server, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", "query=")...) // a tool error exits non-zero

	home := t.TempDir()
	const token = "e2e-token-0123456789abcdef"
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"mcp":{"tools":"all"},"server":{"tokens":[{"name":"e2e","token":"`+token+`","access":"write"}]}}`), 0o600)
	s := serve(t, home)
	client(true, "node", "client.mjs", "http", s.url+"/mcp", token)
	auth := []string{s.url + "/mcp", "--transport", "http", "--header", "Authorization: Bearer " + token}
	if out := inspector(true, append(auth, "--method", "tools/list")...); !strings.Contains(out, `"summarize"`) {
		t.Fatalf("inspector tools/list over HTTP (mcp.tools all):\n%s", out)
	}
	if out := inspector(true, append(auth, "--method", "resources/read", "--uri", "mneme://health")...); !strings.Contains(out, "records") {
		t.Fatalf("inspector health over HTTP:\n%s", out)
	}
	inspector(false, s.url+"/mcp", "--transport", "http", "--method", "tools/list") // no token: refused
	s.stop(t)
}
