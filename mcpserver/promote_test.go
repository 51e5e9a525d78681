package mcpserver

import (
	"strings"
	"testing"
)

func TestPromoteTool(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	var ev struct{ ID string }
	structured(t, call(t, cs, "remember", args{"text": "The nightly build failed: the cache volume was full.", "project": "shop", "type": "episodic"}), &ev)
	type result struct {
		RecordID string `json:"record_id"`
		Outcome  string `json:"outcome"`
		Record   struct {
			Type       string `json:"type"`
			Status     string `json:"status"`
			Title      string `json:"title"`
			Promotions []struct {
				By   string `json:"by"`
				From []struct{ ID, Status string }
			} `json:"promotions"`
		} `json:"record"`
	}
	var made, again, pub result
	structured(t, call(t, cs, "promote", args{"ids": ev.ID, "to": "procedural", "title": "Full build cache"}), &made)
	p := made.Record.Promotions
	if made.Outcome != "created" || made.Record.Type != "procedural" || made.Record.Status != "validated" || made.Record.Title != "Full build cache" ||
		len(p) != 1 || p[0].By != "open" || p[0].From[0].ID != ev.ID || p[0].From[0].Status != "active" {
		t.Fatalf("promote: %+v", made)
	}
	structured(t, call(t, cs, "promote", args{"ids": []string{ev.ID}, "to": "procedural"}), &again)
	structured(t, call(t, cs, "promote", args{"ids": made.RecordID, "to": "procedural", "status": "published"}), &pub)
	if again.Outcome != "unchanged" || again.RecordID != made.RecordID || pub.Outcome != "upgraded" || len(pub.Record.Promotions) != 2 {
		t.Fatalf("again: %+v; published: %+v", again, pub)
	}
	for _, c := range []struct {
		args args
		code string
		msg  string
	}{
		{args{"ids": ev.ID}, "EINVALID", "to"},
		{args{"ids": ev.ID, "to": "episodic"}, "EINVALID", "to"},
		{args{"ids": ev.ID, "to": "semantic", "status": "active"}, "EINVALID", "status"},
		{args{"ids": made.RecordID, "to": "procedural"}, "EINVALID", "never lowers"},
		{args{"ids": "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "to": "semantic"}, "ENOTFOUND", "nothing was promoted"},
		{args{"ids": "nope", "to": "semantic"}, "EINVALID", "not a record id"},
	} {
		res := call(t, cs, "promote", c.args)
		if code, _ := res.Meta["code"].(string); !res.IsError || code != c.code || !strings.Contains(text(res), c.msg) {
			t.Errorf("%v: error %v code %q: %s; want %s mentioning %q", c.args, res.IsError, code, text(res), c.code, c.msg)
		}
	}
	// Recall and list limited to reusable memories.
	var rec struct {
		Hits []struct{ ID string }
		Used struct{ Statuses []string } `json:"used_filters"`
	}
	structured(t, call(t, cs, "recall", args{"query": "build cache volume", "statuses": "validated,published"}), &rec)
	if len(rec.Hits) != 1 || rec.Hits[0].ID != made.RecordID || strings.Join(rec.Used.Statuses, ",") != "published,validated" {
		t.Fatalf("reusable recall: %+v", rec)
	}
	var page struct{ Records []struct{ ID string } }
	structured(t, call(t, cs, "list", args{"statuses": []string{"published"}}), &page)
	if len(page.Records) != 1 || page.Records[0].ID != made.RecordID {
		t.Fatalf("reusable list: %+v", page)
	}
}
