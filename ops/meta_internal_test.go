package ops

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzDecodeMeta: the meta scanner agrees with encoding/json on every
// input: the same entry when it decodes, an error when json refuses.
func FuzzDecodeMeta(f *testing.F) {
	at := time.Date(2026, 5, 1, 10, 0, 0, 5, time.UTC)
	ok, no := true, false
	for _, e := range []Entry{
		{Kind: KindToolCall, Tool: "Bash", Input: `go test ./... <x> & "q"`, Outcome: "ok\n", DurationMS: 840, Success: &ok},
		{Kind: KindSession, Host: "cursor", Repo: "sha256:00ff", Started: &at, Ended: &at, Summary: "3 prompts"},
		{Kind: KindArtifact, Path: "a/b.go", SHA256: "ab", Size: -3, ArtifactKind: "test"},
		{Kind: KindValidation, Check: "vet", Status: "fail", EvidenceHash: "x"},
		{Kind: KindRoute, RouteKind: "model", Choice: "small", Reason: "cheap"},
		{Kind: KindRun, Goal: "fix", Status: "done"},
		{Kind: KindToolCall, Tool: "Édit", Success: &no},
	} {
		f.Add([]byte(meta(&e)))
	}
	for _, s := range []string{`{}`, `{"ops":"x","size":01}`, `{"ops":"x","Tool":"y"}`, `{"success":null}`, `{"started_at":"2026-05-01T10:00:00+02:00"}`,
		`{"ops":"a","ops":"b"}`, `{"size":1e3}`, `{"tool":"\u00e9"}`, `{"tool":"a"} x`, `{"size":-0}`, "{\"tool\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var kind string
		var got Entry
		fast := flat(string(b), &kind, &got, nil)
		var want struct {
			Ops string `json:"ops"`
			Entry
		}
		err := json.Unmarshal(b, &want)
		switch {
		case fast && err != nil:
			t.Fatalf("%q: the scanner accepted what json refuses (%v)", b, err)
		case fast && (kind != want.Ops || !reflect.DeepEqual(got, want.Entry)):
			t.Fatalf("%q: scanner %q %+v, json %q %+v", b, kind, got, want.Ops, want.Entry)
		}
	})
}

// TestMetaFastPath: what ops writes takes the scanner's path.
func TestMetaFastPath(t *testing.T) {
	ok := true
	e := Entry{Kind: KindToolCall, Tool: "Bash", Input: "go test ./pkg/...", Outcome: "ok: 12 tests passed", DurationMS: 840, Success: &ok}
	var kind string
	var got Entry
	if !flat(string(meta(&e)), &kind, &got, nil) || kind != KindToolCall || got.Tool != "Bash" || got.DurationMS != 840 || !*got.Success {
		t.Fatalf("%s: %q %+v", meta(&e), kind, got)
	}
}
