package hook_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/hook"
)

// FuzzParsers feeds every host's parser (Claude Code and Codex, Cursor,
// Gemini CLI) arbitrary bytes, seeded with the recorded sessions, and
// hands what parses to the capture core over a real SQLite home: no
// panic, a bounded answer in bounded time, only JSON (or nothing) for the
// host's stdout, bounded records, and nothing written for garbage (input
// that does not parse, names no session, or is an event mneme ignores).
func FuzzParsers(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "cmd", "mneme", "testdata", "hooks", "*", "session.jsonl"))
	for _, p := range seeds {
		b, _ := os.ReadFile(p)
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f.Add(bytes.ReplaceAll(sc.Bytes(), []byte("$CWD"), []byte("/tmp/shop-api")))
		}
	}
	f.Add([]byte(`{"hook_event_name":"PostToolUse","session_id":"s","tool_response":"\u0000\xff"}`))
	f.Add([]byte(`{"hook_event_name":"sessionStart","conversation_id":"c","workspace_roots":[]}`))
	f.Add([]byte(`[1,2,3]`))
	c, _ := home(f)
	c.NoContext = false
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range hook.Hosts {
			a := hook.Adapters[name]
			before := total(t, c.Eng)
			ev, err := a.Parse(data)
			garbage := err != nil || ev.Kind == hook.Ignore || strings.TrimSpace(ev.Session) == ""
			if err == nil && ev.Kind != hook.Ignore {
				ev.CWD = "" // the fuzzer's paths stay out of the file system
				hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				t0 := time.Now()
				out, _ := c.Handle(hctx, a, ev)
				cancel()
				if d := time.Since(t0); d > 5*time.Second {
					t.Errorf("%s: %s to handle an event", name, d)
				}
				if len(out) > 64<<10 || (len(out) > 0 && !json.Valid(out)) {
					t.Errorf("%s printed %d bytes, valid JSON %v", name, len(out), json.Valid(out))
				}
			}
			after := total(t, c.Eng)
			if garbage && after != before {
				t.Fatalf("%s: garbage wrote %d records: %q", name, after-before, data)
			}
		}
		recs, _, err := c.Eng.List(ctx, mneme.Filter{Clearance: mneme.Secret, IncludeSuperseded: true}, 8, "") // the latest
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if len(r.Text) > hook.MaxPrompt+1024 {
				t.Fatalf("a %s record of %d bytes", r.Kind, len(r.Text))
			}
		}
	})
}

func total(t *testing.T, eng *mneme.Engine) int {
	t.Helper()
	st, err := eng.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Total
}
