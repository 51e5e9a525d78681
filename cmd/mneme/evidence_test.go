package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type evidenceJSON struct {
	Schema, QuerySHA256, PackageSHA256, Decision string
	DecisionReasons                              []string `json:"decision_reasons"`
	Items                                        []map[string]any
	Counts                                       map[string]int
	TopScore                                     float64 `json:"top_score"`
}

// TestEvidenceExport: `context --evidence-export` prints only the
// content-free evidence, the same as POST /v1/context/evidence; bad
// thresholds exit 2.
func TestEvidenceExport(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"hash"}}`), 0o600)
	ok(t, home, "remember", "The release train leaves every Tuesday at noon", "--project", "trains")
	ok(t, home, "remember", "Rollback means reverting the release tag", "--project", "trains")
	out := ok(t, home, "context", "when does the release train leave", "--project", "trains", "--evidence-export", "--evidence-min-items", "3")
	for _, leak := range []string{"release", "Tuesday", "trains", home} {
		if strings.Contains(out, leak) {
			t.Fatalf("the evidence holds %q: %s", leak, out)
		}
	}
	cli := decode[evidenceJSON](t, out)
	if cli.Schema != "mneme.evidence/v1" || cli.Decision != "hold" || strings.Join(cli.DecisionReasons, ",") != "too_few_items" || len(cli.Items) == 0 {
		t.Fatalf("cli evidence = %+v", cli)
	}
	s := serve(t, home)
	body, _ := json.Marshal(map[string]any{"query": "when does the release train leave", "project": "trains", "thresholds": map[string]any{"min_items": 3}})
	status, _, reply := httpDo(t, "POST", s.url+"/v1/context/evidence", string(body), map[string]string{"Content-Type": "application/json"})
	if status != 200 {
		t.Fatalf("POST /v1/context/evidence: %d %s", status, reply)
	}
	h := decode[evidenceJSON](t, reply)
	if h.Decision != cli.Decision || h.PackageSHA256 != cli.PackageSHA256 || h.QuerySHA256 != cli.QuerySHA256 || len(h.Items) != len(cli.Items) || h.TopScore != cli.TopScore {
		t.Fatalf("HTTP %+v, CLI %+v", h, cli)
	}
	r := mneme(t, home, "", "context", "x", "--evidence-export", "--evidence-min-score", "2")
	if r.code != 2 || !strings.Contains(r.stderr, "min_score") {
		t.Fatalf("bad threshold: exit %d, %s", r.code, r.stderr)
	}
	status, _, reply = httpDo(t, "POST", s.url+"/v1/context/evidence", `{"query":"x","thresholds":{"degraded":"maybe"}}`, map[string]string{"Content-Type": "application/json"})
	if status != 400 {
		t.Fatalf("bad threshold over HTTP: %d %s", status, reply)
	}
}
