package storetest

import (
	"slices"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
	"github.com/mneme-ai/mneme/rank"
)

// speakerFixture stores turns of Melanie (visible, in project "home"),
// Zed (secret only), Otto (another project only) and Ivy (superseded
// only).
func speakerFixture(f *fixture) {
	f.remember(mneme.Record{Project: "home", Text: "I play the violin and the clarinet", Speaker: "Melanie", SessionID: "s1"})
	f.remember(mneme.Record{Project: "home", Text: "Wow, Melanie, that's great!", Speaker: "Caroline Ann", SessionID: "s1"})
	f.remember(mneme.Record{Project: "home", Text: "my vault code is in the drawer", Speaker: "Zed", Sensitivity: mneme.Secret, SessionID: "s1"})
	f.remember(mneme.Record{Project: "away", Text: "I play the drums", Speaker: "Otto", SessionID: "s2"})
	f.remember(mneme.Record{Project: "home", Text: "first plan of the trip", Speaker: "Ivy", Key: "plan"})
	f.remember(mneme.Record{Project: "home", Text: "second plan of the trip", Key: "plan"})
}

// testSpeakers: a store that finds speakers (mneme.SpeakerFinder) returns
// those of the names given, folded alike, that speak in a record the
// filter passes: never the speaker of a record hidden by clearance, in
// another project or superseded; nothing for no names; a clear error for
// too many.
func testSpeakers(t *testing.T, f *fixture) {
	sf, ok := f.eng.Store().(mneme.SpeakerFinder)
	if !ok {
		t.Fatal("the store does not find speakers (mneme.SpeakerFinder)")
	}
	speakerFixture(f)
	all := []string{"melanie", "ZED", "Otto", "Ivy", "Caroline Ann", "Caroline", "Nobody"}
	for _, tc := range []struct {
		name  string
		names []string
		f     mneme.Filter
		want  []string
	}{
		{"internal", all, mneme.Filter{Clearance: mneme.Internal}, []string{"melanie", "Otto", "Caroline Ann"}},
		{"secret", all, mneme.Filter{Clearance: mneme.Secret}, []string{"melanie", "ZED", "Otto", "Caroline Ann"}},
		{"project", all, mneme.Filter{Project: "home", Clearance: mneme.Internal}, []string{"melanie", "Caroline Ann"}},
		{"other project", all, mneme.Filter{Project: "away", Clearance: mneme.Secret}, []string{"Otto"}},
		{"superseded", all, mneme.Filter{Project: "home", Clearance: mneme.Internal, IncludeSuperseded: true}, []string{"melanie", "Ivy", "Caroline Ann"}},
		{"session", all, mneme.Filter{Project: "home", SessionID: "s2", Clearance: mneme.Secret}, nil},
		{"type", all, mneme.Filter{Types: []mneme.Type{mneme.Procedural}, Clearance: mneme.Secret}, nil},
		{"none", nil, mneme.Filter{Clearance: mneme.Secret}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sf.Speakers(f.ctx, tc.names, f.filter(tc.f))
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Fatalf("speakers %q, want %q", got, want)
			}
		})
	}
	_, err := sf.Speakers(f.ctx, make([]string, mneme.MaxSpeakerNames+1), f.filter(mneme.Filter{}))
	if mneme.ErrorCode(err) != mneme.EINVALID {
		t.Fatalf("%d names: %v, want EINVALID", mneme.MaxSpeakerNames+1, err)
	}
}

// testSpeakerRewrite: the vector lane embeds the question as the speaker
// it names would ask it (Result.VectorQuery), unless the profile turns it
// off; a name only a hidden record speaks (secret, another project) causes
// no rewrite, so the caller learns nothing of it.
func testSpeakerRewrite(t *testing.T, f *fixture) {
	em, err := hash.New(16)
	if err != nil {
		t.Fatal(err)
	}
	off := rank.Default()
	off.FirstPerson = false
	f.eng = mneme.NewEngine(f.eng.Store(), f.clock(), mneme.WithEmbedder(em), mneme.WithProfiles(map[string]rank.Profile{"off": off}))
	speakerFixture(f)
	for _, tc := range []struct {
		name string
		q    mneme.Query
		want string
	}{
		{"named", mneme.Query{Text: "What instruments does Melanie play?"}, "What instruments does I play?"},
		{"possessive", mneme.Query{Text: "What are Melanie's instruments?", Filter: mneme.Filter{Project: "home"}}, "What are my instruments?"},
		{"profile off", mneme.Query{Text: "What instruments does Melanie play?", Profile: "off"}, ""},
		{"lexical", mneme.Query{Text: "What instruments does Melanie play?", Mode: mneme.Lexical}, ""},
		{"secret speaker", mneme.Query{Text: "What code does Zed keep?"}, ""},
		{"secret speaker, cleared", mneme.Query{Text: "What code does Zed keep?", Filter: mneme.Filter{Clearance: mneme.Secret}}, "What code does I keep?"},
		{"other project", mneme.Query{Text: "What does Otto play?", Filter: mneme.Filter{Project: "home"}}, ""},
		{"no speaker", mneme.Query{Text: "What does Nobody play?"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.K = 5
			res, err := f.eng.Recall(f.ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if res.VectorQuery != tc.want {
				t.Fatalf("vector query %q, want %q", res.VectorQuery, tc.want)
			}
		})
	}
	// A caller whose scope is one project, without clearance, asking for
	// more: the speakers of the other project and of secret records
	// rewrite nothing.
	reader := mneme.WithScope(f.ctx, mneme.Scope{Name: "reader", Projects: []string{"home"}, Clearance: mneme.Internal})
	for _, tc := range []struct {
		name string
		q    mneme.Query
		want string
	}{
		{"scope: own project", mneme.Query{Text: "What does Melanie play?"}, "What does I play?"},
		{"scope: other project", mneme.Query{Text: "What does Otto play?"}, ""},
		{"scope: secret", mneme.Query{Text: "What code does Zed keep?", Filter: mneme.Filter{Clearance: mneme.Secret}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.K = 5
			res, err := f.eng.Recall(reader, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if res.VectorQuery != tc.want {
				t.Fatalf("vector query %q, want %q", res.VectorQuery, tc.want)
			}
		})
	}
}
