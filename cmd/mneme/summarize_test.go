package main_test

import (
	"strings"
	"testing"
)

func TestSummarizeCLI(t *testing.T) {
	home := t.TempDir()
	for _, text := range []string{"We moved staging to Postgres 17 for incremental backups.", "The release train leaves every Tuesday at noon."} {
		ok(t, home, "remember", text, "--project", "shop", "--type", "episodic", "--at", "2026-04-02", "--embedder", "hash")
	}
	type out struct {
		RecordID  string   `json:"record_id"`
		Summary   string   `json:"summary"`
		SourceIDs []string `json:"source_ids"`
		Created   bool     `json:"created"`
	}
	args := []string{"summarize", "--project", "shop", "--since", "2026-04-01", "--until", "2026-04-03", "--max-words", "30", "--embedder", "hash"}
	first := decode[out](t, ok(t, home, append(args, "--json")...))
	again := decode[out](t, ok(t, home, append(args, "--json")...))
	if !first.Created || len(first.SourceIDs) != 2 || again.Created || again.RecordID != first.RecordID || !strings.HasPrefix(first.Summary, "2026-04-02: ") {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	if human := ok(t, home, args...); !strings.Contains(human, "already stored, unchanged; extractive") {
		t.Errorf("human output %q", human)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"summarize", "--project", "shop", "--until", "2026-04-03"}, 2, "--since SINCE"},
		{[]string{"summarize", "--project", "shop", "--since", "2026-04-03", "--until", "2026-04-01"}, 2, "inverted"},
		{[]string{"summarize", "--project", "shop", "--since", "2026-04-01", "--until", "2026-04-03", "--limit", "0"}, 2, "--limit LIMIT"},
		{[]string{"summarize", "--project", "shop", "--since", "2020-01-01", "--until", "2020-01-03", "--embedder", "hash"}, 2, "nothing to summarize"},
		{[]string{"summarize", "--project", "shop", "--since", "2026-04-01", "--until", "2026-04-03", "--strategy", "abstractive", "--embedder", "hash"}, 1, "no language model"},
	} {
		r := mneme(t, home, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%v: exit %d, %q; want %d mentioning %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
}
