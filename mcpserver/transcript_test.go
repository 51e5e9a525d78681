package mcpserver

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme"
)

type args = map[string]any

// TestSessionTranscript runs a fixed session (discovery, remember, recall
// through aliases, get, update, re-remember, list, forget, every resource) and compares the
// wire messages with testdata/session.golden.
func TestSessionTranscript(t *testing.T) {
	eng, now := newEngine(t, true)
	var log bytes.Buffer
	cs := connect(t, eng, now, &log)
	ctx := context.Background()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListResources(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListResourceTemplates(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var first struct{ ID string }
	structured(t, call(t, cs, "remember", args{"text": "We run Postgres 17 on the staging database because it has incremental backups.",
		"project": "shop", "tags": "infra,db", "kind": "decision", "key": "staging-db"}), &first)
	call(t, cs, "remember", args{"text": "To release, tag the commit vX.Y.Z and push the tag: CI builds and publishes it.",
		"memory_type": "procedural", "project_id": "shop", "tags": []string{"release"}})
	call(t, cs, "remember", args{"text": "The user prefers short answers without emojis.", "project": "shop",
		"type": "semantic", "tags": "user", "meta": args{"from": "chat"}, "occurred_at": "2026-04-30"})
	call(t, cs, "remember", args{"text": "Staging moved to Postgres 18 for the new planner.", "project": "shop",
		"tags": []string{"infra", "db"}, "key": "staging-db"}) // supersedes the first
	call(t, cs, "recall", args{"query_text": "which postgres version does staging run", "project_id": "shop",
		"limit": 3, "tags": "infra,db", "explain": true})
	call(t, cs, "recall", args{"query": "how do we release", "project": "shop", "memory_type": "procedural",
		"time_range": args{"start": "2026-04-01", "end": "2026-06-01"}})
	var pkg map[string]any
	structured(t, call(t, cs, "context", args{"query": "which postgres version does staging run", "project": "shop", "budget": 200}), &pkg)
	call(t, cs, "ground", args{"package": pkg, "answer": "Staging runs Postgres 18. It moved in 2019 for Oracle support."})
	call(t, cs, "get", args{"id": first.ID})
	call(t, cs, "update", args{"id": first.ID, "tags": "infra,history", "title": "Staging on 17"})
	call(t, cs, "remember", args{"text": "The user prefers short answers without emojis.", "project": "shop", "tags": "style"}) // keeps meta and time
	call(t, cs, "list", args{"project": "shop", "limit": 2})
	call(t, cs, "forget", args{"project": "shop", "tags": "user", "dry_run": true})
	for _, uri := range []string{"mneme://memory-types", "mneme://projects", "mneme://projects/shop/tags", "mneme://health", "mneme://settings"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
	}
	// A memory stored without an embedder (import --embedder none): recall
	// ranks it by its words and says so.
	plain := mneme.NewEngine(eng.Store(), mneme.WithClock(now))
	if _, err := plain.Remember(ctx, []*mneme.Record{{Text: "Staging backups run nightly at 02:00.", Project: "shop", Tags: []string{"infra"}}}, mneme.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "recall", args{"query": "staging backups", "project": "shop", "limit": 2, "explain": true})
	golden(t, "session.golden", transcript(t, log.String()))
}

// TestErrorTranscript records invalid calls, and an engine without an
// embedder: hybrid recall degrades to words, vector recall is EUNAVAILABLE,
// and so is a write once the provider is down.
func TestErrorTranscript(t *testing.T) {
	eng, now := newEngine(t, false)
	var log bytes.Buffer
	cs := connect(t, eng, now, &log)
	log.Reset() // the handshake is in session.golden
	call(t, cs, "remember", args{"text": "The build uses Go 1.26.", "project": "shop"})
	for _, c := range []struct {
		tool string
		args args
		code string // the error's code; "" for success
	}{
		{"recall", args{"qurey": "go version"}, "EINVALID"},
		{"recall", args{"query": "   "}, "EINVALID"},
		{"recall", args{"query": "go version", "query_text": "build"}, "EINVALID"},
		{"recall", args{"query": "go version", "k": "five"}, "EINVALID"},
		{"recall", args{"query": "go version", "mode": "fuzzy"}, "EINVALID"},
		{"recall", args{"query": "go version", "project": "Not A Project"}, "EINVALID"},
		{"recall", args{"query": "go version", "time_range": args{"start": "last tuesday"}}, "EINVALID"},
		{"recall", args{"query": "go version"}, ""}, // degraded
		{"recall", args{"query": "go version", "mode": "vector"}, "EUNAVAILABLE"},
		{"context", args{"query": "go version", "budget": 10}, "EINVALID"},
		{"context", args{"query": "go version", "budget": 0}, "EINVALID"},
		{"context", args{"query": " "}, "EINVALID"},
		{"context", args{"query": "go version", "budget": 100}, ""}, // degraded
		{"ground", args{"package": args{"text": "x", "colour": 1}, "answer": "Go 1.26."}, "EINVALID"},
		{"ground", args{"package": args{"groups": []any{}}, "answer": " "}, ""}, // empty_answer
		{"remember", args{"text": ""}, "EINVALID"},
		{"remember", args{"text": "the deploy key is AKIAIOSFODNN7EXAMPLE"}, "EINVALID"},
		{"get", args{"id": "nope"}, "EINVALID"},
		{"get", args{"id": "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}, "ENOTFOUND"},
		{"forget", args{}, "EINVALID"},
		{"forget", args{"ids": "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "project": "shop"}, "EINVALID"},
	} {
		res := call(t, cs, c.tool, c.args)
		if code, _ := res.Meta["code"].(string); res.IsError != (c.code != "") || code != c.code || !strings.HasPrefix(text(res), c.code) {
			t.Errorf("%s %v: got error %v code %q: %s; want code %q", c.tool, c.args, res.IsError, code, text(res), c.code)
		}
	}
	down := mneme.NewEngine(eng.Store(), mneme.WithClock(now), mneme.WithEmbedderError(mneme.Errorf(mneme.EUNAVAILABLE, "the embedding provider is down")))
	cs = connect(t, down, now, nil)
	// With the provider down a memory is stored pending embedding (it used
	// to be refused), unless the call requires embedding.
	if res := call(t, cs, "remember", args{"text": "stored without a vector"}); res.IsError || !strings.Contains(text(res), `"pending_embeddings":1`) {
		t.Errorf("remember with the provider down: %s, want it pending", text(res))
	}
	if res := call(t, cs, "remember", args{"text": "stored with a vector?", "require_embedding": true}); !res.IsError || !strings.HasPrefix(text(res), "EUNAVAILABLE: the embedding provider is down") {
		t.Errorf("remember requiring embedding with the provider down: %s, want EUNAVAILABLE", text(res))
	}
	health, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://health"})
	if err != nil {
		t.Fatal(err)
	}
	if h := health.Contents[0].Text; !strings.Contains(h, `"pending_embeddings": 2`) || !strings.Contains(h, `"last_error"`) || !strings.Contains(h, `"status": "degraded"`) {
		t.Errorf("health with two memories pending (one stored without an embedder, above): %s", h)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://nope"}); err == nil {
		t.Error("reading an unknown resource succeeded")
	}
	golden(t, "errors.golden", transcript(t, log.String()))
}
