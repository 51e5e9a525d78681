package mneme_test

import (
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// TestUnknownFieldLists: an unknown field's error lists the fields of the
// object it was found in: a request's own and those of a struct it embeds,
// or a nested object's (named by its path).
func TestUnknownFieldLists(t *testing.T) {
	recall := "id, query, project, types, kinds, tags, all_tags, meta, statuses, since, until, session, run, k, explain, report, include_superseded, " +
		"mode, fusion, alpha, profile, min_score, include_unmatched, no_feedback, rerank, mmr, expand, half_life, hyde"
	pkg := "text, groups, citations, dropped, budget, tokens_used, tokenizer, compression_ratio, candidates, reusable_budget, mode, degraded, degraded_reason, stages, hyde, cache_status, took_ms, report"
	for _, c := range []struct {
		name string
		in   string
		v    any
		want string
	}{
		{"recall request", `{"query":"x","colour":1}`, new(mneme.RecallRequest), `unknown field "colour": allowed fields are ` + recall},
		{"context request", `{"query":"x","colour":1}`, new(contextpack.Request), `unknown field "colour": allowed fields are ` + recall + ", budget"},
		{"context package", `{"text":"x","colour":1}`, new(contextpack.Response), `unknown field "colour": allowed fields are id, ` + pkg},
		{"package citation", `{"text":"x","citations":[{"n":1,"id":"a"},{"n":2,"colour":1}]}`, new(contextpack.Response),
			`unknown field "colour" in citations[1]: allowed fields are n, id, source, session, date`},
		{"group item", `{"groups":[{"header":"h","items":[{"colour":1}]}]}`, new(contextpack.Response), `unknown field "colour" in groups[0].items[0]: allowed fields are `},
		{"case folded", `{"Query":"x","colour":1}`, new(mneme.RecallRequest), `unknown field "colour": allowed fields are ` + recall},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := mneme.DecodeStrict([]byte(c.in), c.v)
			if got := mneme.ErrorMessage(err); len(got) < len(c.want) || got[:len(c.want)] != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
