package mcpserver

import (
	"strings"
	"testing"
)

func TestOpsTool(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	session := map[string]any{"kind": "session", "session": "s1", "host": "cursor", "started_at": "2026-05-01T10:00:00Z"}
	for _, c := range []struct {
		args args
		msg  string
	}{
		{args{"action": "write", "entries": []any{session, map[string]any{"kind": "tool_call", "session": "s1", "tool": "Bash", "colour": 1}}}, "entries[1].colour: unknown field"},
		{args{"action": "write", "entries": []any{map[string]any{"kind": "tool_call", "session": "s9", "tool": "Bash"}}}, "entries[0].session: no session"},
		{args{"action": "write", "entries": []any{session, map[string]any{"kind": "artifact", "session": "s1", "path": "~/x"}}}, "entries[1].path"},
		{args{"action": "write", "entries": []any{session, map[string]any{"kind": "tool_call", "session": "s1", "run": "r9", "tool": "Bash"}}}, `entries[1].run: no run "r9"`},
		{args{"action": "write", "entries": []any{session, session}}, "entries[1].session"},
		{args{"action": "write", "entries": []any{}}, "entries is empty"},
		{args{"action": "delete"}, "does not equal any of"},
		{args{"action": "read", "kinds": "thought"}, "not an ops kind"},
	} {
		res := call(t, cs, "ops", c.args)
		if code, _ := res.Meta["code"].(string); !res.IsError || code != "EINVALID" || !strings.Contains(text(res), c.msg) {
			t.Errorf("%v: error %v code %q: %s; want EINVALID mentioning %q", c.args, res.IsError, code, text(res), c.msg)
		}
	}
	var page struct {
		Entries []struct{ Kind, Session string }
	}
	structured(t, call(t, cs, "ops", args{"action": "read"}), &page)
	if len(page.Entries) != 0 {
		t.Fatalf("a refused batch wrote %+v", page)
	}
	var res struct{ Written int }
	structured(t, call(t, cs, "ops", args{"action": "write", "entries": []any{session,
		map[string]any{"kind": "run", "session": "s1", "run": "r1", "at": "2026-05-01T10:00:01Z"},
		map[string]any{"kind": "validation", "session": "s1", "run": "r1", "check": "lint", "status": "fail", "at": "2026-05-01T10:00:09Z"}}}), &res)
	if res.Written != 3 {
		t.Fatalf("write: %+v", res)
	}
	structured(t, call(t, cs, "ops", args{"action": "read", "session": "s1"}), &page)
	if len(page.Entries) != 3 || page.Entries[0].Kind != "session" || page.Entries[1].Kind != "run" || page.Entries[2].Kind != "validation" {
		t.Fatalf("read: %+v", page)
	}
	// run filters list and recall.
	var list struct{ Records []struct{ Kind string } }
	structured(t, call(t, cs, "list", args{"run": "r1"}), &list)
	if len(list.Records) != 2 || list.Records[0].Kind == list.Records[1].Kind { // the run and its validation

		t.Fatalf("list run r1: %+v", list)
	}
	var hits struct{ Hits []struct{ ID string } }
	structured(t, call(t, cs, "recall", args{"query": "lint", "session": "s2"}), &hits)
	if len(hits.Hits) != 0 {
		t.Fatalf("recall in session s2: %+v", hits)
	}
	structured(t, call(t, cs, "recall", args{"query": "lint", "session": "s1"}), &hits)
	if len(hits.Hits) == 0 {
		t.Fatal("recall in session s1 found nothing")
	}
}
