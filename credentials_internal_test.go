package mneme

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/internal/secret"
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

// FuzzCheckMeta: meta that is not one JSON object is left as it is; a
// masked one is still a JSON object, with the same keys in the same order
// where nothing was masked, and checks clean.
func FuzzCheckMeta(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"db_url":"postgres://u:pw@h/db","n":[1,2.5e3,true,null]}`,
		`{"x":{"password":"hunter22"},"y":["api_key=abcd1234efgh5678"]}`, `{"k\"ey":"v\u00e9\n"}`, `{"a":1} x`, `[1]`, `{"a":`,
		` { "t" : "token=abcd1234efgh5678" } `, `{"gh` + `p_Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf4Ds6Aw0Pe8Yu2Ti":{}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var obj map[string]any
		valid := json.Unmarshal([]byte(in), &obj) == nil && obj != nil
		if valid && anyFinding(obj, "") {
			if _, err := checkMeta(json.RawMessage(in), false); err == nil {
				t.Fatalf("checkMeta(%q) passed a credential that a scan of each string finds", in)
			}
		}
		out, err := checkMeta(json.RawMessage(in), true)
		if !valid {
			if err != nil || string(out) != in {
				t.Fatalf("checkMeta(%q) of no JSON object = %q, %v", in, out, err)
			}
			return
		}
		if err != nil {
			return // a mask over a limit
		}
		if !json.Valid(out) || strings.TrimSpace(string(out))[0] != '{' {
			t.Fatalf("checkMeta(%q) = %q, not a JSON object", in, out)
		}
		if _, err := checkMeta(out, false); err != nil {
			t.Fatalf("checkMeta(%q) = %q, which still has %v", in, out, err)
		}
	})
}

// anyFinding scans each key and string of v on its own, as a reference
// for checkMeta's single scan.
func anyFinding(v any, name string) bool {
	switch v := v.(type) {
	case string:
		return secret.ScanNamed(name, v) != nil
	case []any:
		for _, e := range v {
			if anyFinding(e, name) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if secret.Scan(k) != nil || anyFinding(e, k) {
				return true
			}
		}
	}
	return false
}
