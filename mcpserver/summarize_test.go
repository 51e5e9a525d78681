package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/jobs"
	"github.com/mneme-ai/mneme/llm"
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

// TestSummarizeToolOptions: time_range as recall's, the memory type, a
// per-call model among those allowed (others are tool errors), and the
// run in the job ledger.
func TestSummarizeToolOptions(t *testing.T) {
	base, now := newEngine(t, true)
	g, err := llm.New(llm.Config{Provider: "ollama", BaseURL: "http://127.0.0.1:9", Model: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	em, _ := hash.New(64)
	eng := mneme.NewEngine(base.Store(), mneme.WithClock(now), mneme.WithEmbedder(em), mneme.WithHypothesisGenerator(g))
	cs := connect(t, eng, now, nil)
	call(t, cs, "remember", args{"text": "Deploys need a green build.", "project": "shop", "type": "procedural", "occurred_at": "2026-04-02T10:00:00Z"})
	var res struct {
		SourceIDs []string `json:"source_ids"`
		Used      struct {
			Types []string `json:"types"`
		} `json:"used_filters"`
	}
	structured(t, call(t, cs, "summarize", args{"project": "shop", "type": "procedural", "time_range": args{"start": "2026-04-01", "end": "2026-04-03"}}), &res)
	if len(res.SourceIDs) != 1 || len(res.Used.Types) != 1 || res.Used.Types[0] != "procedural" {
		t.Fatalf("procedural over time_range: %+v", res)
	}
	for _, c := range []struct {
		in   args
		want string
	}{
		{args{"project": "shop", "type": "procedural", "time_range": args{"start": "2026-04-01", "end": "2026-04-03"}, "options": args{"model": "gpt-5"}}, `EINVALID: model "gpt-5" is not one this deployment allows: use m1`},
		{args{"project": "shop", "type": "procedural", "time_range": args{"start": "2026-04-01", "end": "2026-04-03"}, "options": args{"provider": "openai"}}, `EINVALID: provider "openai" is not this deployment's`},
		{args{"project": "shop", "time_range": args{"start": "2026-04-01"}, "until": "2026-04-03", "since": "2026-03-01"}, "time_range.start and since"},
		{args{"project": "shop"}, "summarize needs a window"},
	} {
		if r := call(t, cs, "summarize", c.in); !r.IsError || !strings.Contains(text(r), c.want) {
			t.Errorf("%v: %s", c.in, text(r))
		}
	}
	es, err := jobs.List(context.Background(), eng, jobs.Query{})
	if err != nil || len(es) != 1 || es[0].Kind != jobs.KindSummarize || es[0].Status != jobs.Done {
		t.Fatalf("ledger: %+v, %v", es, err)
	}
}
