package mcpserver

import (
	"strings"
	"testing"
)

func TestSummarizeTool(t *testing.T) {
	eng, now := newEngine(t, true)
	cs := connect(t, eng, now, nil)
	for i, text := range []string{"We moved the staging database to Postgres 17 for incremental backups.",
		"The release train leaves every Tuesday at noon after the freeze.", "The flaky checkout test came from a timezone bug."} {
		call(t, cs, "remember", args{"text": text, "project": "shop", "type": "episodic", "kind": "turn", "tags": "chat",
			"occurred_at": "2026-04-0" + string(rune('1'+i)) + "T10:00:00Z"})
	}
	window := args{"project_id": "shop", "since": "2026-04-01", "until": "2026-04-05", "tags": "chat", "max_words": 30}
	var first, again struct {
		RecordID  string   `json:"record_id"`
		Summary   string   `json:"summary"`
		SourceIDs []string `json:"source_ids"`
		Strategy  string   `json:"strategy"`
		Created   bool     `json:"created"`
		Used      struct {
			Project  string `json:"project"`
			MaxWords int    `json:"max_words"`
		} `json:"used_filters"`
	}
	structured(t, call(t, cs, "summarize", window), &first)
	if !first.Created || first.Strategy != "extractive" || len(first.SourceIDs) != 3 || first.Used.Project != "shop" || first.Used.MaxWords != 30 ||
		len(strings.Fields(first.Summary)) > 30 || !strings.HasPrefix(first.Summary, "2026-04-0") {
		t.Fatalf("summarize: %+v", first)
	}
	structured(t, call(t, cs, "summarize", window), &again)
	if again.Created || again.RecordID != first.RecordID {
		t.Errorf("repeat: %+v", again)
	}
	for _, c := range []struct {
		args args
		code string
		msg  string
	}{
		{args{"project": "shop", "until": "2026-04-05"}, "EINVALID", "since"},
		{args{"project": "shop", "since": "2026-04-05", "until": "2026-04-01"}, "EINVALID", "inverted"},
		{args{"project": "shop", "since": "2026-04-01", "until": "2026-04-05", "limit": 0}, "EINVALID", "limit 0"},
		{args{"project": "shop", "since": "2026-04-01", "until": "2026-04-05", "max_words": -3}, "EINVALID", "max_words -3"},
		{args{"project": "shop", "since": "2020-01-01", "until": "2020-01-02"}, "EINVALID", "nothing to summarize"},
		{args{"project": "shop", "since": "2026-04-01", "until": "2026-04-05", "strategy": "magic"}, "EINVALID", "strategy"},
		{args{"project": "shop", "project_id": "blog", "since": "2026-04-01", "until": "2026-04-05"}, "EINVALID", "project_id"},
		{args{"project": "shop", "since": "2026-04-01", "until": "2026-04-05", "strategy": "abstractive"}, "EUNAVAILABLE", "no language model"},
	} {
		res := call(t, cs, "summarize", c.args)
		if code, _ := res.Meta["code"].(string); !res.IsError || code != c.code || !strings.Contains(text(res), c.msg) {
			t.Errorf("%v: error %v code %q: %s; want %s mentioning %q", c.args, res.IsError, code, text(res), c.code, c.msg)
		}
	}
}
