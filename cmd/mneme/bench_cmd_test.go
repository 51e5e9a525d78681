package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type benchJSON struct {
	Dataset    string
	Records    int
	Unembedded int
	Modes      []struct {
		Mode    string
		Queries int
		Groups  map[string]map[string]float64
	}
}

// TestBenchCommand runs `mneme bench` on tiny datasets whose answers are
// known, in the benchmarks' own formats.
func TestBenchCommand(t *testing.T) {
	dir := t.TempDir()
	locomo := filepath.Join(dir, "locomo.json")
	os.WriteFile(locomo, []byte(`[{"sample_id":"conv-1","conversation":{"speaker_a":"Ann","speaker_b":"Bob",
		"session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[
		{"speaker":"Ann","dia_id":"D1:1","text":"I adopted a puppy named Biscuit"},
		{"speaker":"Bob","dia_id":"D1:2","text":"Nice! I started learning the violin"},
		{"speaker":"Ann","dia_id":"D1:3","text":"Thanks!"}],
		"session_2_date_time":"9:00 am on 9 June, 2023","session_2":[
		{"speaker":"Ann","dia_id":"D2:1","text":"Thanks!"},
		{"speaker":"Bob","dia_id":"D2:2","text":"My violin teacher is strict","blip_caption":"a photo of a violin"}]},
		"qa":[{"question":"What is the name of Ann's puppy?","evidence":["D1:1"],"category":4},
		      {"question":"Which instrument does Bob play?","evidence":["D1:2; D2:02"],"category":1},
		      {"question":"What did Ann say twice?","evidence":["D1:3","D2:1"],"category":5}]}]`), 0o600)
	r := decode[benchJSON](t, ok(t, t.TempDir(), "bench", "locomo", locomo, "--json"))
	m := r.Modes[0]
	if r.Records != 5 || m.Mode != "lexical" || m.Queries != 3 {
		t.Fatalf("locomo report = %+v", r)
	}
	if g := m.Groups["4"]; g["r@1"] != 1 || g["n"] != 1 {
		t.Fatalf("single-hop = %v", g)
	}
	if g := m.Groups["1"]; g["r@5"] != 1 { // both violin turns, evidence "D2:02" normalised
		t.Fatalf("multi-hop = %v", g)
	}
	if g := m.Groups["overall_1_4"]; g["n"] != 2 {
		t.Fatalf("overall = %v", g)
	}

	// A partly embedded home: some turns stored without a vector.
	p := decode[benchJSON](t, ok(t, t.TempDir(), "bench", "locomo", locomo, "--embedder", "hash", "--embedded", "0.7", "--modes", "hybrid", "--json"))
	if p.Records != 5 || p.Unembedded == 0 || p.Unembedded == 5 || len(p.Modes) != 1 || p.Modes[0].Mode != "hybrid" || p.Modes[0].Queries != 3 {
		t.Fatalf("partly embedded locomo report = %+v", p)
	}
	if r := mneme(t, t.TempDir(), "", "bench", "locomo", locomo, "--embedded", "0", "--json"); r.code != 2 || !strings.Contains(r.stderr, "--embedded 0 is out of range") {
		t.Fatalf("--embedded 0: %+v", r)
	}

	// A sweep measures each mode once per value of a ranking profile field.
	sw := decode[benchJSON](t, ok(t, t.TempDir(), "bench", "locomo", locomo, "--modes", "lexical", "--sweep", "speaker_boost=0,0.5", "--json"))
	if len(sw.Modes) != 2 || sw.Modes[0].Mode != "lexical speaker_boost=0" || sw.Modes[1].Mode != "lexical speaker_boost=0.5" || sw.Modes[1].Queries != 3 {
		t.Fatalf("sweep report = %+v", sw)
	}
	for _, bad := range []struct{ args, want string }{
		{"--sweep=speaker=0.1", "is no ranking profile field: use one of alpha"},
		{"--sweep=alpha=2", "alpha 2 is out of range"},
		{"--sweep=time_pool=300", "time_pool is retired: the search restricted to the time a question names (window_pool) took its place"},
		{"--profile=docs", "is no ranking profile of config.json"},
	} {
		if r := mneme(t, t.TempDir(), "", "bench", "locomo", locomo, "--modes", "lexical", bad.args, "--json"); r.code != 2 || !strings.Contains(r.stderr, bad.want) {
			t.Errorf("%s: %+v, want exit 2 saying %s", bad.args, r, bad.want)
		}
	}

	beir := filepath.Join(dir, "beir")
	os.MkdirAll(filepath.Join(beir, "qrels"), 0o755)
	os.WriteFile(filepath.Join(beir, "corpus.jsonl"), []byte(`{"_id":"d1","title":"Statins","text":"Statins lower cholesterol"}
{"_id":"d2","title":"Fiber","text":"Dietary fiber and gut health"}
{"_id":"d3","title":"Only a title","text":""}
`), 0o600)
	os.WriteFile(filepath.Join(beir, "queries.jsonl"), []byte(`{"_id":"q1","text":"cholesterol statins"}
{"_id":"q2","text":"unjudged query"}
`), 0o600)
	os.WriteFile(filepath.Join(beir, "qrels", "test.tsv"), []byte("query-id\tcorpus-id\tscore\nq1\td1\t2\n"), 0o600)
	b := decode[benchJSON](t, ok(t, t.TempDir(), "bench", "beir", beir, "--json"))
	if g := b.Modes[0].Groups["all"]; b.Records != 3 || g["n"] != 1 || g["ndcg@10"] != 1 || g["recall@100"] != 1 {
		t.Fatalf("beir report = %+v", b)
	}
	if r := mneme(t, t.TempDir(), "", "bench", "squad", dir, "--json"); r.code != 2 {
		t.Fatalf("unknown dataset: %+v", r)
	}
}
