package vault

import (
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

func BenchmarkRender(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	r := &mneme.Record{ID: mneme.NewID(now), Project: "p1", Type: mneme.Semantic, Kind: "note", Title: "Memory number 42",
		Tags: []string{"bench", "note"}, Status: mneme.Active, Sensitivity: mneme.Internal, CreatedAt: now, UpdatedAt: now,
		Text: fmt.Sprintf("Memory %d: the service on host-%d restarts nightly; the runbook says check the queue depth first.", 42, 42)}
	name := func(string) string { return "" }
	for b.Loop() {
		sum(render(r, name))
	}
}
