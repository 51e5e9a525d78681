package main_test

import (
	"os/user"
	"strings"
	"testing"
)

type promoteJSON struct {
	RecordID string `json:"record_id"`
	Outcome  string
	Record   struct {
		ID, Type, Status, Title, Text string
		Links                         []struct{ Type, Target string }
		Promotions                    []struct {
			By, ToType, ToStatus string
			From                 []struct{ ID, Type, Status string }
		}
	}
}

type pruneJSON struct {
	Pruned int
	DryRun bool `json:"dry_run"`
	IDs    []string
}

// TestPromoteCLI: promote through the binary, from an event to a how-to
// and then in place; recall and list limited to reusable records; the
// refusals exit 2 (or 1 for an unknown id) and write nothing.
func TestPromoteCLI(t *testing.T) {
	home := t.TempDir()
	ev := decode[writeJSON](t, ok(t, home, "remember", "The nightly build failed: the cache volume was full; pruning it fixed it.", "--type", "episodic", "--tags", "build", "--json"))
	other := decode[writeJSON](t, ok(t, home, "remember", "Deploys go out on Tuesdays after the CAB review and the freeze.", "--json"))
	made := decode[promoteJSON](t, ok(t, home, "promote", ev.ID, "--to", "procedural", "--title", "Full build cache", "--json"))
	r := made.Record
	me := "owner"
	if u, err := user.Current(); err == nil && u.Username != "" {
		me = u.Username
	}
	if made.Outcome != "created" || r.Type != "procedural" || r.Status != "validated" || r.Title != "Full build cache" ||
		len(r.Links) != 1 || r.Links[0].Target != ev.ID || len(r.Promotions) != 1 || r.Promotions[0].By != me ||
		r.Promotions[0].From[0].ID != ev.ID || r.Promotions[0].From[0].Status != "active" {
		t.Fatalf("promote = %+v", made)
	}
	pub := decode[promoteJSON](t, ok(t, home, "promote", made.RecordID, "--to", "procedural", "--status", "published", "--json"))
	if pub.Outcome != "upgraded" || pub.RecordID != made.RecordID || len(pub.Record.Promotions) != 2 {
		t.Fatalf("in place = %+v", pub)
	}
	if out := ok(t, home, "promote", ev.ID, "--to", "procedural", "--status", "published"); !strings.HasPrefix(out, "unchanged "+made.RecordID) {
		t.Fatalf("again = %q", out)
	}
	if out := ok(t, home, "get", made.RecordID); !strings.Contains(out, "promoted: published procedural by "+me) {
		t.Fatalf("get shows no promotion:\n%s", out)
	}
	hits := decode[recallJSON](t, ok(t, home, "recall", "build cache volume", "--status", "validated,published", "--json"))
	if len(hits.Hits) != 1 || hits.Hits[0].ID != made.RecordID {
		t.Fatalf("reusable recall = %+v", hits)
	}
	list := decode[struct{ Records []struct{ ID string } }](t, ok(t, home, "list", "--status", "published", "--json"))
	if len(list.Records) != 1 || list.Records[0].ID != made.RecordID {
		t.Fatalf("reusable list = %+v", list)
	}
	before := ok(t, home, "export")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"promote", ev.ID}, 2, "--to semantic"},
		{[]string{"promote", ev.ID, "--to", "episodic"}, 2, "not a reusable type"},
		{[]string{"promote", ev.ID, "--to", "semantic", "--status", "active"}, 2, "--status validated"},
		{[]string{"promote", made.RecordID, "--to", "procedural"}, 2, "never lowers"},
		{[]string{"promote", ev.ID, "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "--to", "semantic"}, 1, "nothing was promoted"},
		{[]string{"recall", "cache", "--status", "checked"}, 2, `status "checked"`},
		{[]string{"prune"}, 2, "say what to prune"},
		{[]string{"prune", "--project", "default"}, 2, "a project alone"},
	} {
		res := mneme(t, home, "", c.args...)
		if res.code != c.code || !strings.Contains(res.stderr, c.msg) {
			t.Errorf("mneme %v: exit %d, %s; want %d with %q", c.args, res.code, res.stderr, c.code, c.msg)
		}
	}
	if after := ok(t, home, "export"); after != before {
		t.Fatal("a refused command changed the store")
	}

	// Prune: a dry run lists, then the draft goes and the rest stays.
	draft := decode[writeJSON](t, ok(t, home, "remember", "A draft about deploy windows.", "--status", "draft", "--json"))
	dry := decode[pruneJSON](t, ok(t, home, "prune", "--status", "draft", "--dry-run", "--json"))
	if dry.Pruned != 0 || !dry.DryRun || len(dry.IDs) != 1 || dry.IDs[0] != draft.ID {
		t.Fatalf("dry run = %+v", dry)
	}
	if out := ok(t, home, "prune", "--status", "draft"); out != "pruned 1 memory\n  "+draft.ID+"\n" {
		t.Fatalf("prune = %q", out)
	}
	n := len(decode[struct{ Records []any }](t, ok(t, home, "list", "--json")).Records)
	if n != 3 || strings.Contains(ok(t, home, "list"), draft.ID) || !strings.Contains(ok(t, home, "list"), other.ID) {
		t.Fatalf("after prune: %d records", n)
	}
}
