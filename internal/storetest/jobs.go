package storetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/jobs"
)

func ledger(t *testing.T, f *fixture) jobs.Ledger {
	t.Helper()
	led, ok := f.eng.Store().(jobs.Ledger)
	if !ok {
		t.Fatal("the store keeps no job ledger (jobs.Ledger)")
	}
	return led
}

func list(t *testing.T, ctx context.Context, f *fixture, q jobs.Query) []jobs.Entry {
	t.Helper()
	es, err := jobs.List(ctx, f.eng, q)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// testJobRuns: a sync records one entry with its counts; a failed run
// its error, without absolute paths; a cancelled one is interrupted;
// entries list newest first, by kind.
func testJobRuns(t *testing.T, f *fixture) {
	ledger(t, f)
	f.remember(mneme.Record{Project: "a", Text: "pending before an embedder"})
	em, _ := hash.New(16)
	f.embedWith(em)
	res, err := jobs.EmbedPending(f.ctx, f.eng)
	if err != nil || res.Embedded != 1 {
		t.Fatalf("sync: %+v %v", res, err)
	}
	es := list(t, f.ctx, f, jobs.Query{})
	if len(es) != 1 || es[0].Kind != jobs.KindSync || es[0].Status != jobs.Done || es[0].Counts["embedded"] != 1 || es[0].Counts["pending"] != 0 ||
		es[0].Caller != "owner" || es[0].EndedAt == nil || es[0].Project != "" {
		t.Fatalf("sync entry: %+v", es)
	}
	_, err = jobs.Track(f.ctx, f.eng, jobs.KindIngest, "a", func(context.Context) (int, error) {
		return 0, mneme.Errorf(mneme.EUNAVAILABLE, "open /home/alice/secret/repo/file.md: no such file; see http://127.0.0.1:9/api/embed")
	}, func(int) (map[string]int, string) { return map[string]int{"files": 2}, "/srv/data/x.md" })
	if err == nil {
		t.Fatal("the run's error was lost")
	}
	ctx, cancel := context.WithCancel(f.ctx)
	jobs.Track(ctx, f.eng, jobs.KindSummarize, "a", func(ctx context.Context) (int, error) { cancel(); return 0, ctx.Err() }, // Ctrl-C
		func(int) (map[string]int, string) { return nil, "" })
	es = list(t, f.ctx, f, jobs.Query{})
	if len(es) != 3 || es[0].Kind != jobs.KindSummarize || es[1].Kind != jobs.KindIngest || es[2].Kind != jobs.KindSync {
		t.Fatalf("not newest first: %+v", es)
	}
	if es[0].Status != jobs.Interrupted {
		t.Errorf("cancelled run: %+v", es[0])
	}
	failed := es[1]
	if failed.Status != jobs.Failed || failed.Counts["files"] != 2 || !strings.HasPrefix(failed.Error, "EUNAVAILABLE: open …/file.md: no such file") ||
		!strings.Contains(failed.Error, "http://127.0.0.1:9/api/embed") || failed.Cursor != "…/x.md" {
		t.Errorf("failed run (no absolute paths, URLs kept): %+v", failed)
	}
	if es := list(t, f.ctx, f, jobs.Query{Kind: jobs.KindIngest}); len(es) != 1 || es[0].ID != failed.ID {
		t.Errorf("by kind: %+v", es)
	}
	if _, err := jobs.List(f.ctx, f.eng, jobs.Query{Kind: "backup"}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Errorf("unknown kind: %v", err)
	}
}

// testJobInterrupted: a run that never records its end is running while
// its lease lasts and its process lives, interrupted after.
func testJobInterrupted(t *testing.T, f *fixture) {
	run, err := jobs.Start(f.ctx, f.eng, jobs.KindReindex, "")
	if err != nil {
		t.Fatal(err)
	}
	run.Progress(map[string]int{"embedded": 40}, "0190-cursor")
	if es := list(t, f.ctx, f, jobs.Query{}); len(es) != 1 || es[0].Status != jobs.Running || es[0].EndedAt != nil {
		t.Fatalf("a run in progress: %+v", es)
	}
	f.now = f.now.Add(2 * time.Minute) // its process stopped renewing
	es := list(t, f.ctx, f, jobs.Query{})
	if len(es) != 1 || es[0].Status != jobs.Interrupted || es[0].EndedAt != nil || !strings.Contains(es[0].Error, "without recording its end") {
		t.Fatalf("a run whose lease ended: %+v", es)
	}
	run.Finish(f.ctx, map[string]int{"embedded": 50}, "", nil)
	// A process of this host that is gone: interrupted at once.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	dead := jobs.Entry{ID: mneme.NewID(f.now), Kind: jobs.KindSync, Caller: "owner", Status: jobs.Running, StartedAt: f.now,
		AliveUntil: f.now.Add(time.Hour), Owner: fmt.Sprintf("%s:%d", host, cmd.Process.Pid), Counts: map[string]int{}}
	if err := ledger(t, f).PutJob(f.ctx, dead, jobs.Keep); err != nil {
		t.Fatal(err)
	}
	if es := list(t, f.ctx, f, jobs.Query{Kind: jobs.KindSync}); len(es) != 1 || es[0].Status != jobs.Interrupted {
		t.Fatalf("a run whose process is gone: %+v", es)
	}
	if es := list(t, f.ctx, f, jobs.Query{Kind: jobs.KindReindex}); len(es) != 1 || es[0].Status != jobs.Done || es[0].Counts["embedded"] != 50 {
		t.Fatalf("the run that ended after all: %+v", es)
	}
}

// testJobScope: a scope limited to projects sees only their entries, and
// one that may not run a job leaves no entry.
func testJobScope(t *testing.T, f *fixture) {
	for _, p := range []string{"a", "b", ""} {
		run, err := jobs.Start(f.ctx, f.eng, jobs.KindCode, p)
		if err != nil {
			t.Fatal(err)
		}
		run.Finish(f.ctx, nil, "", nil)
	}
	onlyA := mneme.WithScope(f.ctx, mneme.Scope{Name: "ta", Projects: []string{"a"}, Write: true})
	if es := list(t, onlyA, f, jobs.Query{}); len(es) != 1 || es[0].Project != "a" {
		t.Fatalf("project-scoped listing: %+v", es)
	}
	if es := list(t, f.ctx, f, jobs.Query{}); len(es) != 3 {
		t.Fatalf("owner listing: %+v", es)
	}
	for _, c := range []struct {
		ctx     context.Context
		project string
	}{
		{onlyA, ""},
		{onlyA, "b"},
		{mneme.WithScope(f.ctx, mneme.Scope{Name: "ro"}), "a"},
	} {
		_, err := jobs.Track(c.ctx, f.eng, jobs.KindSync, c.project, func(context.Context) (int, error) { t.Fatal("ran"); return 0, nil },
			func(int) (map[string]int, string) { return nil, "" })
		if mneme.ErrorCode(err) != mneme.EFORBIDDEN {
			t.Errorf("%q: %v, want EFORBIDDEN", c.project, err)
		}
	}
	if es := list(t, f.ctx, f, jobs.Query{}); len(es) != 3 {
		t.Fatalf("refused runs left entries: %+v", es)
	}
}

// testJobPrune: the ledger keeps the newest jobs.Keep entries of a kind;
// other kinds keep theirs.
func testJobPrune(t *testing.T, f *fixture) {
	led := ledger(t, f)
	put := func(kind jobs.Kind, n int) {
		e := jobs.Entry{ID: mneme.NewID(f.now), Kind: kind, Caller: "owner", Status: jobs.Done, StartedAt: f.now, EndedAt: &f.now,
			AliveUntil: f.now, Counts: map[string]int{"n": n}}
		if err := led.PutJob(f.ctx, e, jobs.Keep); err != nil {
			t.Fatal(err)
		}
	}
	put(jobs.KindIngest, -1)
	for i := range jobs.Keep + 5 {
		put(jobs.KindSync, i)
	}
	es := list(t, f.ctx, f, jobs.Query{Kind: jobs.KindSync, Limit: jobs.MaxLimit})
	if len(es) != jobs.Keep || es[0].Counts["n"] != jobs.Keep+4 || es[len(es)-1].Counts["n"] != 5 {
		t.Fatalf("kept %d entries, newest %v, oldest %v", len(es), es[0].Counts, es[len(es)-1].Counts)
	}
	if es := list(t, f.ctx, f, jobs.Query{Kind: jobs.KindIngest}); len(es) != 1 {
		t.Fatalf("another kind's entries pruned: %+v", es)
	}
	_, err := jobs.List(f.ctx, f.eng, jobs.Query{Limit: jobs.MaxLimit + 1})
	if mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("limit over the maximum: %v", err)
	}
}
