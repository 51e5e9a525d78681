package httpapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/httpapi"
	"github.com/mneme-ai/mneme/internal/access"
	"github.com/mneme-ai/mneme/jobs"
)

// TestJobs: a summarize through the API records a run in its project; GET
// /v1/jobs lists the runs the token may see (a token limited to a project
// sees neither the store-wide sync nor other projects' runs), and stats
// shows the last run of each kind; bad parameters are 400s.
func TestJobs(t *testing.T) {
	e := newEnv(t, httpapi.Config{Tokens: []access.Token{writer, reader, alpha}})
	e.remember(&writer, mneme.RememberRequest{Text: "The release train leaves every Tuesday.", Project: "alpha", Type: mneme.Episodic, OccurredAt: "2026-04-02"})
	e.want(e.do("POST", "/v1/summarize", &alpha, map[string]any{"since": "2026-04-01", "until": "2026-04-03"}), http.StatusCreated, nil)
	if _, err := jobs.EmbedPending(context.Background(), e.eng); err != nil {
		t.Fatal(err)
	}
	var all, mine jobList
	e.want(e.do("GET", "/v1/jobs", &reader, nil), http.StatusOK, &all)
	if len(all.Jobs) != 2 || all.Jobs[0].Kind != jobs.KindSync || all.Jobs[1].Kind != jobs.KindSummarize ||
		all.Jobs[1].Caller != "alpha" || all.Jobs[1].Project != "alpha" || all.Jobs[1].Status != jobs.Done || all.Jobs[1].Counts["sources"] != 1 {
		t.Fatalf("every run: %+v", all.Jobs)
	}
	e.want(e.do("GET", "/v1/jobs", &alpha, nil), http.StatusOK, &mine)
	if len(mine.Jobs) != 1 || mine.Jobs[0].Project != "alpha" {
		t.Fatalf("a token limited to alpha: %+v", mine.Jobs)
	}
	e.want(e.do("GET", "/v1/jobs?kind=sync&limit=1", &reader, nil), http.StatusOK, &all)
	if len(all.Jobs) != 1 || all.Jobs[0].Kind != jobs.KindSync {
		t.Fatalf("by kind: %+v", all.Jobs)
	}
	var st jobs.Stats
	e.want(e.do("GET", "/v1/stats", &alpha, nil), http.StatusOK, &st)
	if len(st.LastJobs) != 1 || st.LastJobs[0].Kind != jobs.KindSummarize {
		t.Fatalf("stats of alpha: %+v", st.LastJobs)
	}
	e.want(e.do("GET", "/v1/stats", &reader, nil), http.StatusOK, &st)
	if len(st.LastJobs) != 2 || st.LastJobs[0].Kind != jobs.KindSync {
		t.Fatalf("stats: %+v", st.LastJobs)
	}
	e.wantError(e.do("GET", "/v1/jobs?kind=backup", &reader, nil), http.StatusBadRequest, mneme.EINVALID, `job kind "backup" is not one of sync, reindex`)
	e.wantError(e.do("GET", "/v1/jobs?limit=0", &reader, nil), http.StatusBadRequest, mneme.EINVALID, "limit")
	e.wantError(e.do("GET", "/v1/jobs?limit=201", &reader, nil), http.StatusBadRequest, mneme.EINVALID, "out of range")
	e.wantError(e.do("GET", "/v1/jobs?project=x", &reader, nil), http.StatusBadRequest, mneme.EINVALID, "unknown query parameter")
}

type jobList struct {
	Jobs []jobs.Entry `json:"jobs"`
}
