// Package storetest is the contract every mneme.Store passes: the same
// behaviour through the Engine, whatever the backend.
package storetest

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// Opener returns a fresh, empty store; the suite closes it.
type Opener func(t *testing.T) mneme.Store

// Role names one role of mneme.Store and its part of the suite, so a new
// backend can pass role by role.
type Role string

const (
	Records   Role = "records"   // mneme.RecordStore, and the write rules
	Search    Role = "search"    // mneme.SearchStore: both lanes under filters
	Documents Role = "documents" // mneme.DocumentStore
	Vectors   Role = "vectors"   // mneme.VectorStore: the home's embedder, vectors, cache, pending embedding (and mneme.PendingStore)
	Cache     Role = "cache"     // mneme.CacheStore: result cache entries and write generations
	Jobs      Role = "jobs"      // jobs.Ledger: the job ledger
)

var suites = map[Role]map[string]func(*testing.T, *fixture){
	Records: {
		"RoundTripAllFields":     testRoundTrip,
		"DedupeByContent":        testDedupe,
		"DedupeIsPerProject":     testDedupePerProject,
		"DedupeInBatch":          testBatchDedupe,
		"BatchInOrder":           testBatchInOrder,
		"Supersession":           testSupersession,
		"TTL":                    testTTL,
		"SecretNeedsClearance":   testSecret,
		"ListPages":              testListPages,
		"DeleteAllOrNone":        testDeleteAllOrNone,
		"ImportIdempotent":       testImportIdempotent,
		"Stats":                  testStats,
		"StatsWithoutClearance":  testStatsClearance,
		"ConcurrentSameText":     testConcurrentSameText,
		"ConcurrentRewrites":     testConcurrentRewrites,
		"CredentialRefusedWhole": testCredentialRefused,
		"Promotion":              testPromotion,
		"SameTextTwoTypes":       testSameTextTwoTypes,
		"PruneByFilter":          testPruneByFilter,
		"RememberHiddenText":     testRememberHiddenText,
		"SupersedeHiddenKey":     testSupersedeHiddenKey,
		"ImportHiddenID":         testImportHiddenID,
		"IDsHiddenAlike":         testIDsHiddenAlike,
		"DerivedFollowSecret":    testDerivedFollowSecret,
		"ImportedPromotions":     testImportedPromotions,
		"LinkRelations":          testLinkRelations,
		"LinkRefused":            testLinkRefused,
		"HiddenLinkTargets":      testHiddenLinkTargets,
		"ExpandLinks":            testExpandLinks,
		"LinkedCandidates":       testLinkedCandidates,
		"IncomingLinks":          testIncomingLinks,
		"Timeline":               testTimeline,
	},
	Search: {
		"FilteredTopK":    testFilteredTopK,
		"StatusTopK":      testStatusTopK,
		"Filters":         testSearchFilters,
		"SessionRun":      testSessionRunFilters,
		"MatchedTerms":    testMatchedTerms,
		"VectorSearch":    testVectorSearch,
		"VectorLater":     testVectorLater,
		"UnembeddedCount": testUnembeddedCount,
		"MetaFilters":     testMetaFilters,
		"MetaTopK":        testMetaTopK,
		"WindowSearch":    testWindowSearch,
		"Speakers":        testSpeakers,
		"SpeakerRewrite":  testSpeakerRewrite,
	},
	Documents: {
		"Documents":      testDocuments,
		"ImportedChunks": testImportedChunks,
		"IngestEmbeds":   testIngestEmbeds,
		"IngestResumes":  testIngestResumes,
	},
	Vectors: {
		"Vectors":           testVectors,
		"EmbedderMismatch":  testEmbedderMismatch,
		"EmbedsWithContext": testEmbedsWithContext,
		"CacheVectors":      testCacheVectors,
		"ImportResumes":     testImportResumes,
		"ReindexResumes":    testReindexResumes,
		"PendingWrites":     testPendingWrites,
		"SyncResumes":       testSyncResumes,
		"UnembeddedCursor":  testUnembeddedCursor,
		"StaleVector":       testStaleVector,
		"ReindexBeside":     testReindexBeside,
		"ReindexRefused":    testReindexRefused,
		"ReindexInterrupt":  testReindexInterrupted,
		"VectorOfOtherSet":  testVectorOfOtherSet,
		"FollowHome":        testFollowHome,
		"Notes":             testNotes,
	},
	Cache: {
		"Entries":     testCacheEntries,
		"Prune":       testCachePrune,
		"Generations": testCacheGenerations,
		"Recall":      testCacheRecall,
	},
	Jobs: {
		"Runs":        testJobRuns,
		"Interrupted": testJobInterrupted,
		"Scope":       testJobScope,
		"Prune":       testJobPrune,
	},
}

// Run runs the suite of each role named, every role without one.
func Run(t *testing.T, open Opener, roles ...Role) {
	if len(roles) == 0 {
		roles = []Role{Records, Search, Documents, Vectors, Cache, Jobs}
	}
	for _, role := range roles {
		tests := suites[role]
		names := make([]string, 0, len(tests))
		for n := range tests {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			t.Run(string(role)+"/"+name, func(t *testing.T) {
				s := open(t)
				t.Cleanup(func() { s.Close() })
				f := &fixture{t: t, ctx: context.Background(), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
				f.eng = mneme.NewEngine(s, f.clock())
				tests[name](t, f)
			})
		}
	}
}

type fixture struct {
	t   *testing.T
	ctx context.Context
	eng *mneme.Engine
	now time.Time
}

// remember stores one record and returns the write result.
func (f *fixture) remember(r mneme.Record) mneme.WriteResult {
	f.t.Helper()
	res, err := f.eng.Remember(f.ctx, []*mneme.Record{&r}, mneme.WriteOptions{})
	if err != nil {
		f.t.Fatalf("remember %q: %v", r.Text, err)
	}
	return res
}

func (f *fixture) get(id string) *mneme.Record {
	f.t.Helper()
	r, err := f.eng.Get(f.ctx, id, mneme.Secret)
	if err != nil {
		f.t.Fatalf("get %s: %v", id, err)
	}
	return r
}

func (f *fixture) recall(q mneme.Query) []mneme.Hit {
	f.t.Helper()
	if q.K == 0 {
		q.K = 10
	}
	res, err := f.eng.Recall(f.ctx, q)
	if err != nil {
		f.t.Fatalf("recall %q: %v", q.Text, err)
	}
	return res.Hits
}

func ids(hits []mneme.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func wantCounts(t *testing.T, got mneme.WriteResult, ins, upd, skip int) {
	t.Helper()
	if got.Inserted != ins || got.Updated != upd || got.SkippedDuplicates != skip {
		t.Fatalf("write result = %+v, want inserted %d, updated %d, skipped %d", got, ins, upd, skip)
	}
}

// clock is the fixture's clock, which tests move by setting f.now.
func (f *fixture) clock() mneme.Option { return mneme.WithClock(func() time.Time { return f.now }) }

// embedWith replaces the fixture's engine with one over the same store
// that embeds with em (nil: none).
func (f *fixture) embedWith(em mneme.Embedder) {
	f.eng = mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(em))
}
