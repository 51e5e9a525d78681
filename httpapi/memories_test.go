package httpapi_test

import (
	"bufio"
	"bytes"
	"net/http"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/jobs"
)

// TestMemories walks every memory route's happy path on one store; each
// body must be what the CLI prints with --json for the same value.
func TestMemories(t *testing.T) {
	e := newEnv(t, httpapi.Config{Version: "test"})
	var wr mneme.WriteResult
	release := mneme.RememberRequest{Text: "Releases are cut on Tuesdays <after> the freeze.", Project: "demo", Type: mneme.Procedural, Tags: []string{"Release"}, Key: "release-day"}
	e.want(e.do("POST", "/v1/memories", nil, release), http.StatusCreated, &wr)
	id := wr.ID
	if wr.Inserted != 1 || !mneme.ValidID(id) {
		t.Fatalf("remember: %+v", wr)
	}
	e.want(e.do("POST", "/v1/memories", nil, release), http.StatusCreated, &wr)
	if wr.SkippedDuplicates != 1 || wr.ID != id {
		t.Fatalf("remember again: %+v, want the duplicate of %s", wr, id)
	}
	batch := map[string]any{"memories": []mneme.RememberRequest{
		{Text: "We deploy with the blue-green script.", Project: "demo"},
		{Text: "The on-call rota changes on Mondays.", Project: "demo", TTL: "30d"},
		{Text: "Releases move to Wednesdays.", Project: "demo", Key: "release-day"},
	}}
	e.want(e.do("POST", "/v1/memories/batch", nil, batch), http.StatusCreated, &wr)
	if wr.Inserted != 3 || wr.Superseded != 1 {
		t.Fatalf("batch: %+v", wr)
	}

	var rec mneme.Record
	e.want(e.do("GET", "/v1/memories/"+id, nil, nil), http.StatusOK, &rec)
	if rec.Text != release.Text || rec.Status != mneme.Superseded || rec.Tags[0] != "release" {
		t.Fatalf("get: %+v", rec)
	}

	var page mneme.ListPage
	e.want(e.do("GET", "/v1/memories?project=demo&limit=2", nil, nil), http.StatusOK, &page)
	if len(page.Records) != 2 || page.NextCursor == "" {
		t.Fatalf("list page 1: %d records, cursor %q", len(page.Records), page.NextCursor)
	}
	e.want(e.do("GET", "/v1/memories?project=demo&limit=2&cursor="+page.NextCursor, nil, nil), http.StatusOK, &page)
	if len(page.Records) != 1 || page.NextCursor != "" {
		t.Fatalf("list page 2: %d records, cursor %q (superseded ones are left out)", len(page.Records), page.NextCursor)
	}
	e.want(e.do("GET", "/v1/memories?project=demo&include_superseded=true&type=procedural,semantic&tag=release", nil, nil), http.StatusOK, &page)
	if len(page.Records) != 1 || page.Records[0].ID != id {
		t.Fatalf("list by type and tag: %+v", page.Records)
	}
	e.want(e.do("GET", "/v1/memories?project=nobody", nil, nil), http.StatusOK, &page)
	if page.Records == nil {
		t.Fatal("an empty page must list [] as the CLI does, not null")
	}

	title := "Release day"
	e.want(e.do("PATCH", "/v1/memories/"+id, nil, mneme.Patch{Title: &title}), http.StatusOK, &rec)
	if rec.Title != title || rec.ID != id || rec.Text != release.Text {
		t.Fatalf("patch: %+v", rec)
	}

	var st jobs.Stats
	e.want(e.do("GET", "/v1/stats", nil, nil), http.StatusOK, &st)
	if st.Total != 4 || st.Superseded != 1 {
		t.Fatalf("stats: %+v", st)
	}
	var h struct {
		OK      bool   `json:"ok"`
		Version string `json:"version"`
	}
	// Anyone may ask for health, so it counts nothing (want decodes strictly).
	e.want(e.do("GET", "/v1/health", nil, nil), http.StatusOK, &h)
	if !h.OK || h.Version != "test" {
		t.Fatalf("health: %+v", h)
	}

	// Export, then import into another store: everything arrives, ids kept;
	// a second import changes nothing.
	exp := e.do("GET", "/v1/export?project=demo", nil, nil)
	if exp.status != http.StatusOK || exp.header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("export: %d %s", exp.status, exp.header.Get("Content-Type"))
	}
	lines := 0
	for sc := bufio.NewScanner(bytes.NewReader(exp.body)); sc.Scan(); lines++ {
		var r mneme.Record
		if err := mneme.DecodeStrict(sc.Bytes(), &r); err != nil || cliJSON(t, &r) != sc.Text()+"\n" {
			t.Fatalf("export line %d is not a record as the CLI writes it: %v\n%s", lines+1, err, sc.Text())
		}
	}
	if lines != 4 {
		t.Fatalf("export: %d lines, want 4", lines)
	}
	other := newEnv(t, httpapi.Config{})
	other.want(other.do("POST", "/v1/import", nil, exp.body), http.StatusOK, &wr)
	if wr.Inserted != 4 || wr.ID != "" {
		t.Fatalf("import: %+v", wr)
	}
	other.want(other.do("POST", "/v1/import", nil, exp.body), http.StatusOK, &wr)
	if wr.Inserted != 0 || wr.SkippedDuplicates+wr.Updated != 4 {
		t.Fatalf("import again: %+v", wr)
	}
	other.want(other.do("GET", "/v1/memories/"+id, nil, nil), http.StatusOK, &rec)

	var fr mneme.ForgetResult
	e.want(e.do("POST", "/v1/forget", nil, map[string]any{"filter": map[string]any{"project": "demo", "key": "release-day"}, "dry_run": true}), http.StatusOK, &fr)
	if !fr.DryRun || len(fr.IDs) != 2 || fr.Forgotten != 0 {
		t.Fatalf("forget dry run: %+v", fr)
	}
	e.want(e.do("DELETE", "/v1/memories/"+id, nil, nil), http.StatusOK, &fr)
	if fr.Forgotten != 1 || fr.IDs[0] != id {
		t.Fatalf("delete: %+v", fr)
	}
	e.wantError(e.do("GET", "/v1/memories/"+id, nil, nil), http.StatusNotFound, mneme.ENOTFOUND, id)
	e.want(e.do("POST", "/v1/forget", nil, map[string]any{"filter": map[string]any{"project": "demo"}}), http.StatusOK, &fr)
	if fr.Forgotten != 3 || len(fr.IDs) != 3 {
		t.Fatalf("forget by filter: %+v", fr)
	}
	e.want(e.do("GET", "/v1/export", nil, nil), http.StatusOK, nil)
}
