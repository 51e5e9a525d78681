package mcpserver

import (
	"strings"
	"testing"
)

func TestPruneTool(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	var draft, kept struct{ ID string }
	structured(t, call(t, cs, "remember", args{"text": "A first guess at the cause.", "project": "shop", "status": "draft"}), &draft)
	structured(t, call(t, cs, "remember", args{"text": "The cause, checked.", "project": "shop"}), &kept)
	for _, c := range []struct {
		args args
		code string
		msg  string
	}{
		{args{"project": "shop"}, "EINVALID", "never empties a project"},
		{args{}, "EINVALID", "say what to prune"},
		{args{"statuses": "stale"}, "EINVALID", "stale"},
		{args{"expired": "yes"}, "EINVALID", "expired"},
		{args{"statuses": "draft", "ids": draft.ID}, "EINVALID", "ids"},
	} {
		res := call(t, cs, "prune", c.args)
		if code, _ := res.Meta["code"].(string); !res.IsError || code != c.code || !strings.Contains(text(res), c.msg) {
			t.Errorf("%v: error %v code %q: %s; want %s mentioning %q", c.args, res.IsError, code, text(res), c.code, c.msg)
		}
	}
	type result struct {
		Pruned int
		DryRun bool `json:"dry_run"`
		IDs    []string
	}
	var dry, done result
	structured(t, call(t, cs, "prune", args{"project": "shop", "statuses": "draft", "dry_run": true}), &dry)
	structured(t, call(t, cs, "prune", args{"project": "shop", "statuses": []string{"draft"}}), &done)
	if !dry.DryRun || strings.Join(dry.IDs, ",") != draft.ID || done.Pruned != 1 || strings.Join(done.IDs, ",") != draft.ID {
		t.Fatalf("dry run %+v, prune %+v; want %s", dry, done, draft.ID)
	}
	if res := call(t, cs, "get", args{"id": draft.ID}); !res.IsError {
		t.Fatalf("the pruned record is still there: %s", text(res))
	}
	if res := call(t, cs, "get", args{"id": kept.ID}); res.IsError {
		t.Fatalf("prune took a record it did not select: %s", text(res))
	}
}
