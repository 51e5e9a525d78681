package ops_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/ops"
	"github.com/mneme-ai/mneme/sqlite"
)

func open(t testing.TB) *mneme.Engine {
	t.Helper()
	s, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	eng := mneme.NewEngine(s)
	t.Cleanup(func() { eng.Close() })
	return eng
}

func count(t *testing.T, eng *mneme.Engine) int {
	t.Helper()
	st, err := eng.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Total
}

const session = `{"kind":"session","session":"s1","host":"claude-code","repo":".","started_at":"2026-05-01T10:00:00Z"}`

// TestBadInput: every bad batch names its row and field, and writes
// nothing, also when the rows before it were fine.
func TestBadInput(t *testing.T) {
	long := strings.Repeat("x", ops.MaxSummaryBytes+1)
	cases := []struct {
		name, rows string
		row        int
		field, msg string
	}{
		{"unknown field", `{"kind":"tool_call","session":"s1","tool":"Bash","colour":"red"}`, 1, "colour", "unknown field"},
		{"wrong type", `{"kind":"tool_call","session":"s1","tool":"Bash","duration_ms":"slow"}`, 1, "duration_ms", "whole number"},
		{"bad time", `{"kind":"tool_call","session":"s1","tool":"Bash","at":"yesterday"}`, 1, "at", "RFC 3339"},
		{"null field", `{"kind":"tool_call","session":"s1","tool":null}`, 1, "tool", "null"},
		{"null row", `null`, 1, "", "null"},
		{"unknown kind", `{"kind":"thought","session":"s1"}`, 1, "kind", "not a kind"},
		{"field of another kind", `{"kind":"tool_call","session":"s1","tool":"Bash","path":"a.go"}`, 1, "path", "not a field of a tool_call"},
		{"missing session", `{"kind":"tool_call","tool":"Bash"}`, 1, "session", "missing"},
		{"missing tool", `{"kind":"tool_call","session":"s1"}`, 1, "tool", "missing"},
		{"unknown session", `{"kind":"tool_call","session":"s9","tool":"Bash"}`, 1, "session", "no session"},
		{"duplicate session", session, 1, "session", "already entries[0]"},
		{"duplicate run", `{"kind":"run","session":"s1","run":"r1"},{"kind":"run","session":"s1","run":"r1"}`, 2, "run", "already entries[1]"},
		{"absolute path", `{"kind":"artifact","session":"s1","path":"/home/ann/repo/a.go"}`, 1, "path", "absolute"},
		{"windows path", `{"kind":"artifact","session":"s1","path":"C:\\Users\\ann\\a.go"}`, 1, "path", "absolute"},
		{"home path", `{"kind":"artifact","session":"s1","path":"~/repo/a.go"}`, 1, "path", "~"},
		{"outside the repo", `{"kind":"artifact","session":"s1","path":"src/../../etc/passwd"}`, 1, "path", ".."},
		{"absolute repo", `{"kind":"session","session":"s2","repo":"/home/ann/repo"}`, 1, "repo", "absolute"},
		{"home path in input", `{"kind":"tool_call","session":"s1","tool":"Bash","input":"cat /home/ann/.netrc"}`, 1, "input", "home directory"},
		{"credential", `{"kind":"tool_call","session":"s1","tool":"Bash","outcome":"token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}`, 1, "outcome", "credential"},
		{"over the size limit", `{"kind":"tool_call","session":"s1","tool":"Bash","outcome":"` + long + `"}`, 1, "outcome", "over the limit of 2048 bytes"},
		{"invalid utf-8", "{\"kind\":\"tool_call\",\"session\":\"s1\",\"tool\":\"Bash\",\"input\":\"\xff\xfe\"}", 1, "input", "UTF-8"},
		{"bad host", `{"kind":"session","session":"s2","host":"vim"}`, 1, "host", "not a host"},
		{"bad sha256", `{"kind":"artifact","session":"s1","path":"a.go","sha256":"abc"}`, 1, "sha256", "64"},
		{"negative duration", `{"kind":"tool_call","session":"s1","tool":"Bash","duration_ms":-1}`, 1, "duration_ms", "negative"},
		{"unknown run", `{"kind":"tool_call","session":"s1","run":"r9","tool":"Bash"}`, 1, "run", "no run \"r9\""},
		{"run of another session", `{"kind":"session","session":"s2"},{"kind":"run","session":"s2","run":"r2"},{"kind":"validation","session":"s1","run":"r2","check":"vet","status":"pass"}`, 3, "run", "belongs to session \"s2\""},
		{"line break in an id", `{"kind":"validation","session":"s1","check":"go\ntest","status":"pass"}`, 1, "check", "line break"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eng := open(t)
			b, err := ops.Decode([]byte(`{"entries":[` + session + `,` + c.rows + `]}`))
			if err == nil {
				_, err = ops.Write(context.Background(), eng, b)
			}
			var fe *ops.FieldError
			var be *mneme.BatchError
			if !errors.As(err, &fe) || !errors.As(err, &be) {
				t.Fatalf("err = %v, want a FieldError in a BatchError", err)
			}
			if fe.Index != c.row || be.Index != c.row || fe.Field != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v (row %d, field %q), want row %d, field %q, saying %q", err, fe.Index, fe.Field, c.row, c.field, c.msg)
			}
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("code %s, want EINVALID", mneme.ErrorCode(err))
			}
			if n := count(t, eng); n != 0 {
				t.Fatalf("%d records written, want none", n)
			}
		})
	}
}

// TestRunsMustExist: an entry naming a run finds it in the batch or in
// the store, in its own session; a run the project does not hold is
// refused like an unknown session, and nothing is written.
func TestRunsMustExist(t *testing.T) {
	ctx := context.Background()
	eng := open(t)
	write := func(rows string) error {
		b, err := ops.Decode([]byte(`{"project":"p","entries":[` + rows + `]}`))
		if err == nil {
			_, err = ops.Write(ctx, eng, b)
		}
		return err
	}
	if err := write(session + `,{"kind":"run","session":"s1","run":"r1","goal":"fix"}`); err != nil {
		t.Fatal(err)
	}
	if err := write(`{"kind":"tool_call","session":"s1","run":"r1","tool":"Bash"}`); err != nil {
		t.Fatalf("a stored run: %v", err)
	}
	if err := write(`{"kind":"tool_call","session":"s1","run":"r3","tool":"Go"},{"kind":"run","session":"s1","run":"r3"}`); err != nil {
		t.Fatalf("a run the same batch sends later: %v", err)
	}
	before := count(t, eng)
	for _, c := range []struct{ rows, msg string }{
		{`{"kind":"tool_call","session":"s1","tool":"Read"},{"kind":"tool_call","session":"s1","run":"r9","tool":"Bash"}`, `entries[1].run: no run "r9"`},
		{`{"kind":"session","session":"s2"},{"kind":"tool_call","session":"s2","run":"r1","tool":"Bash"}`, `entries[1].run: run "r1" belongs to session "s1"`},
		{`{"kind":"session","session":"s2"},{"kind":"run","session":"s2","run":"r1"}`, `entries[1].run: run "r1" belongs to session "s1"`},
	} {
		err := write(c.rows)
		if mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %v, want %q", c.rows, err, c.msg)
		}
	}
	if n := count(t, eng); n != before {
		t.Errorf("%d records after refused batches, want %d", n, before)
	}
	if _, err := ops.Write(ctx, eng, ops.Batch{Project: "q", Entries: []ops.Entry{{Kind: ops.KindSession, Session: "s1"},
		{Kind: ops.KindToolCall, Session: "s1", Run: "r1", Tool: "Bash"}}}); err == nil {
		t.Error("a run of another project was accepted")
	}
}

func TestBadBatch(t *testing.T) {
	for name, body := range map[string]string{
		"null":          `null`,
		"no entries":    `{"project":"p"}`,
		"empty":         `{"entries":[]}`,
		"null entries":  `{"entries":null}`,
		"unknown field": `{"entries":[],"x":1}`,
		"not json":      `{"entries":`,
		"trailing":      `{"entries":[]} {}`,
	} {
		t.Run(name, func(t *testing.T) {
			b, err := ops.Decode([]byte(body))
			if err == nil {
				err = ops.Check(&b)
			}
			if mneme.ErrorCode(err) != mneme.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
		})
	}
}

func TestWriteRead(t *testing.T) {
	ctx := context.Background()
	eng := open(t)
	b, err := ops.Decode([]byte(`{"project":"p","entries":[` + session + `,
		{"kind":"run","session":"s1","run":"r1","goal":"fix the flaky test","status":"running","at":"2026-05-01T10:00:01Z"},
		{"kind":"prompt","session":"s1","text":"why is TestClock flaky?","at":"2026-05-01T10:00:02Z"},
		{"kind":"tool_call","session":"s1","run":"r1","tool":"Bash","input":"go test -run TestClock ./...","outcome":"FAIL: timeout","duration_ms":1200,"success":false,"at":"2026-05-01T10:00:03Z"},
		{"kind":"artifact","session":"s1","run":"r1","path":"clock/clock_test.go","size":120,"artifact_kind":"test","at":"2026-05-01T10:00:04Z"},
		{"kind":"validation","session":"s1","run":"r1","check":"go-test","status":"pass","at":"2026-05-01T10:00:05Z"},
		{"kind":"route","session":"s1","run":"r1","route_kind":"model","choice":"small","reason":"cheap_task","at":"2026-05-01T10:00:06Z"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ops.Write(ctx, eng, b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 7 || len(res.IDs) != 7 {
		t.Fatalf("result %+v, want 7 written", res)
	}
	page, err := ops.Read(ctx, eng, ops.Query{Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, it := range page.Entries {
		kinds = append(kinds, it.Kind)
	}
	if got := strings.Join(kinds, " "); got != "session run prompt tool_call artifact validation route" {
		t.Fatalf("timeline %s", got)
	}
	tc := page.Entries[3]
	if tc.Tool != "Bash" || tc.DurationMS != 1200 || tc.Success == nil || *tc.Success || tc.Run != "r1" || tc.Project != "p" {
		t.Fatalf("tool call read back as %+v", tc)
	}
	if p := page.Entries[2]; p.Text != "why is TestClock flaky?" {
		t.Fatalf("prompt read back as %q", p.Text)
	}
	for q, want := range map[*ops.Query]int{
		{Run: "r1"}: 5, {Session: "s1", Run: "r1"}: 5, {Session: "s2"}: 0, {Kinds: []string{"route"}}: 1,
		{Since: ptr(time.Date(2026, 5, 1, 10, 0, 4, 0, time.UTC))}: 3,
		{Until: ptr(time.Date(2026, 5, 1, 10, 0, 1, 0, time.UTC))}: 2,
	} {
		page, err := ops.Read(ctx, eng, *q)
		if err != nil || len(page.Entries) != want {
			t.Fatalf("read %+v: %d entries, %v; want %d", *q, len(page.Entries), err, want)
		}
	}
	// The same event twice is counted, not stored again; a child row may
	// name a session the store already has.
	again, err := ops.Decode([]byte(`{"project":"p","entries":[{"kind":"validation","session":"s1","run":"r1","check":"go-test","status":"pass","at":"2026-05-01T10:00:05Z"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := ops.Write(ctx, eng, again); err != nil || res.Skipped != 1 || res.IDs[0] != page.Entries[5].ID {
		t.Fatalf("repeat: %+v, %v", res, err)
	}
	// Recall finds what was tried.
	hits, err := eng.Recall(ctx, mneme.Query{Text: "flaky test", K: 10, Filter: mneme.Filter{SessionID: "s1"}})
	if err != nil || len(hits.Hits) == 0 {
		t.Fatalf("recall: %v, %v", hits, err)
	}
}

func TestPrune(t *testing.T) {
	ctx := context.Background()
	eng := open(t)
	b, _ := ops.Decode([]byte(`{"entries":[` + session + `,
		{"kind":"tool_call","session":"s1","tool":"Bash","at":"2026-05-01T10:00:03Z"},
		{"kind":"session","session":"s2","started_at":"2026-06-01T10:00:00Z"}]}`))
	if _, err := ops.Write(ctx, eng, b); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Remember(ctx, []*mneme.Record{{Text: "a note, not ops", Type: mneme.Semantic}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.Prune(ctx, eng, ops.PruneRequest{}); mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("prune without before: %v", err)
	}
	before := time.Date(2026, 5, 15, 0, 0, 0, 0, time.UTC)
	dry, err := ops.Prune(ctx, eng, ops.PruneRequest{Before: &before, DryRun: true})
	if err != nil || len(dry.IDs) != 2 || dry.Pruned != 0 || count(t, eng) != 4 {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	res, err := ops.Prune(ctx, eng, ops.PruneRequest{Before: &before})
	if err != nil || res.Pruned != 2 || count(t, eng) != 2 {
		t.Fatalf("prune: %+v, %v, %d left", res, err, count(t, eng))
	}
}

func ptr[T any](v T) *T { return &v }

// TestRedact: with redact, a credential is masked and the batch stored.
func TestRedact(t *testing.T) {
	ctx := context.Background()
	eng := open(t)
	b, err := ops.Decode([]byte(`{"redact":true,"entries":[` + session + `,{"kind":"tool_call","session":"s1","tool":"Bash","outcome":"token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ops.Write(ctx, eng, b); err != nil {
		t.Fatal(err)
	}
	page, err := ops.Read(ctx, eng, ops.Query{Kinds: []string{ops.KindToolCall}})
	if err != nil || len(page.Entries) != 1 || strings.Contains(page.Entries[0].Outcome, "ghp_0123") {
		t.Fatalf("read %+v, %v: want the credential masked", page.Entries, err)
	}
}
