package mneme

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCheckCredentials times checkCredentials alone, without the
// validation around it: over a typical record with every field filled and
// over a 64 KiB meta.
func BenchmarkCheckCredentials(b *testing.B) {
	typical := Record{
		Title: "Deploy rollback procedure",
		Text: "To roll back a deploy, run `make rollback TAG=v1.42.0` from the ops repo; the script drains the " +
			"blue pool, flips the load balancer to green and waits for health checks (about 90 s). Check the " +
			"dashboard at https://grafana.example.com/d/deploys before and after. If the database migration " +
			"already ran, restore from the nightly snapshot instead: the migration is not reversible. The on-call " +
			"engineer owns the decision; page #ops-oncall if unsure. Tokens for the deploy bot live in the vault.",
		Kind: "procedure", Key: "ops/deploy-rollback", Tags: []string{"ops", "deploy", "rollback", "runbook"},
		Source:    &Source{URI: "https://github.com/acme/ops/blob/main/docs/rollback.md", LineStart: 12, LineEnd: 40},
		SessionID: "sess-2026-06-01-7f3a", RunID: "run-0192f0c1", Speaker: "ops-agent",
		Meta: json.RawMessage(`{"ticket":"OPS-1234","owner":"alice@example.com","reviewed":true,"version":3,` +
			`"links":{"runbook":"https://wiki.example.com/ops/rollback","dashboard":"https://grafana.example.com/d/deploys"},"services":["api","web","worker"]}`),
	}
	var m strings.Builder
	m.WriteString(`{"n":0`)
	for i := 0; m.Len() < MaxMetaBytes-200; i++ {
		m.WriteString(`,"field_` + strconv.Itoa(i) + `":"https://example.com/a?b=c and some words"`)
	}
	m.WriteString("}")
	for _, bc := range []struct {
		name string
		r    Record
	}{
		{"all-fields", typical},
		{"title+text", Record{Title: typical.Title, Text: typical.Text}},
		{"meta-64KiB", Record{Text: "x", Meta: json.RawMessage(m.String())}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.r.Meta) + len(bc.r.Text) + len(bc.r.Title)))
			for b.Loop() {
				r := bc.r
				if err := checkCredentials(&r, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
