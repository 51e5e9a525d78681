package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/codemem"
)

// TestCodeContextTool: code_context answers the envelope with the context
// slice for a root under code.roots, EFORBIDDEN for any other.
func TestCodeContextTool(t *testing.T) {
	allowed := t.TempDir()
	root := filepath.Join(allowed, "tool")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "__main__.py"), []byte("import requests\nprint(1)\n"), 0o644)
	eng, _ := newEngine(t, false)
	info := testInfo
	info.Code = codemem.New(codemem.Options{CacheDir: t.TempDir(), Restrict: true, Roots: []string{allowed}})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := New(eng, info).Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var env codemem.Envelope
	structured(t, call(t, cs, "code_context", args{"project_root": root}), &env)
	if env.Command != "context" || env.CacheStatus != codemem.Miss || env.Context == nil || len(env.Context.EntryPoints) != 1 ||
		len(env.Context.TopImports) != 1 || env.Context.TopImports[0].Name != "requests" {
		t.Fatalf("code_context: %+v", env)
	}
	res := call(t, cs, "code_context", args{"project_root": t.TempDir()})
	if !res.IsError || !strings.HasPrefix(text(res), "EFORBIDDEN: ") || !strings.Contains(text(res), "code.roots") {
		t.Fatalf("outside the roots: %s", text(res))
	}
}
