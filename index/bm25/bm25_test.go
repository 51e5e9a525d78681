package bm25

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

var words = strings.Fields("alpha beta gamma delta release releases releasing deploy build cache the a of postgres rust go")

func randomDoc(rng *rand.Rand, key int64) Doc {
	text := func(n int) string {
		var ws []string
		for range n {
			ws = append(ws, words[rng.IntN(len(words))])
		}
		return strings.Join(ws, " ")
	}
	var tags []string
	for range rng.IntN(3) {
		tags = append(tags, fmt.Sprintf("t%d", rng.IntN(4)))
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	d := Doc{Key: key, Title: text(rng.IntN(3)), Text: text(1 + rng.IntN(20)), Attrs: Attrs{
		Project: fmt.Sprintf("p%d", rng.IntN(3)), Type: []string{"episodic", "semantic"}[rng.IntN(2)],
		Kind: "note", Status: []string{"active", "superseded"}[rng.IntN(2)], Sensitivity: "internal",
		Tags: tags, Event: int64(rng.IntN(100)), Expires: int64(rng.IntN(3) * 50),
	}}
	for _, k := range []string{"tenant", "phase"} { // each key absent a third of the time
		if v := rng.IntN(3); v > 0 {
			d.Attrs.Meta = append(d.Attrs.Meta, fmt.Sprintf("%s=%d", k, v))
		}
	}
	return d
}

// reference scores every live document the slow, obvious way.
func reference(docs map[int64]Doc, q Query) []Hit {
	stat := func(d Doc) (map[string]float64, float64) {
		tf, n := map[string]float64{}, 0.0
		add := func(s string, w float64) {
			for _, t := range terms(s) {
				tf[t] += w
				n += w
			}
		}
		add(d.Title, titleWeight)
		add(d.Text, 1)
		for _, t := range d.Attrs.Tags {
			add(t, tagWeight)
		}
		return tf, n
	}
	total := 0.0
	df := map[string]int{}
	for _, d := range docs {
		tf, n := stat(d)
		total += n
		for t := range tf {
			df[t]++
		}
	}
	avg, N := total/float64(len(docs)), float64(len(docs))
	var hits []Hit
	for _, d := range docs {
		if !matchRef(q.Filter, d.Attrs) {
			continue
		}
		tf, n := stat(d)
		score := 0.0
		var matched []string
		for _, w := range q.Terms {
			f := tf[Stem(w)]
			if f == 0 {
				continue
			}
			n_t := float64(df[Stem(w)])
			idf := math.Log(1 + (N-n_t+0.5)/(n_t+0.5))
			score += idf * f * (k1 + 1) / (f + k1*(1-b+b*n/avg))
			if !slices.Contains(matched, w) {
				matched = append(matched, w)
			}
		}
		if score > 0 {
			hits = append(hits, Hit{Key: d.Key, Score: score, Matched: matched})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if math.Abs(hits[i].Score-hits[j].Score) > 1e-4 {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Key > hits[j].Key
	})
	return hits[:min(len(hits), q.K)]
}

func matchRef(f Filter, a Attrs) bool {
	if (f.Project != "" && a.Project != f.Project) || (len(f.Types) > 0 && !slices.Contains(f.Types, a.Type)) ||
		(f.ExcludeStatus != "" && a.Status == f.ExcludeStatus) || (f.Now != 0 && a.Expires != 0 && a.Expires <= f.Now) ||
		(f.Since != 0 && a.Event < f.Since) || (f.Until != 0 && a.Event > f.Until) {
		return false
	}
	for _, c := range f.Meta {
		if !slices.ContainsFunc(c, func(v string) bool { return slices.Contains(a.Meta, v) }) {
			return false
		}
	}
	n := 0
	for _, t := range f.Tags {
		if slices.Contains(a.Tags, t) {
			n++
		}
	}
	return len(f.Tags) == 0 || n == len(f.Tags) || (!f.AllTags && n > 0)
}

func TestSearchMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := New()
	docs := map[int64]Doc{}
	for i := range 400 {
		d := randomDoc(rng, int64(i))
		ix.Put(d)
		docs[d.Key] = d
	}
	for i := range 150 { // updates and deletes leave tombstones behind
		k := int64(rng.IntN(400))
		if i%2 == 0 {
			ix.Delete(k)
			delete(docs, k)
		} else {
			d := randomDoc(rng, k)
			ix.Put(d)
			docs[k] = d
		}
	}
	filters := []Filter{{}, {Project: "p1"}, {Types: []string{"episodic"}, ExcludeStatus: "superseded"},
		{Tags: []string{"t1", "t2"}}, {Tags: []string{"t1", "t2"}, AllTags: true}, {Since: 20, Until: 60, Now: 50},
		{Project: "nope"}, {Meta: [][]string{{"tenant=1"}}}, {Meta: [][]string{{"tenant=1", "tenant=2"}, {"phase=2"}}, Project: "p1"},
		{Meta: [][]string{{"tenant=9"}}}, {Meta: [][]string{{"tenant=1"}, {"tenant=2"}}}}
	var encoded bytes.Buffer
	for round, index := range []*Index{ix, nil} {
		if round == 1 { // the same answers after an encode/decode round trip
			if _, err := ix.WriteTo(&encoded); err != nil {
				t.Fatal(err)
			}
			var err error
			if index, err = Decode(aligned(encoded.Bytes())); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range filters { // Select agrees with the reference filter
			sel := index.Select(f)
			n := 0
			for key, d := range docs {
				if matchRef(f, d.Attrs) {
					n++
				}
				if sel.Has(key) != matchRef(f, d.Attrs) {
					t.Fatalf("round %d filter %+v: Select has key %d = %v", round, f, key, sel.Has(key))
				}
			}
			if sel.Len() != n || sel.Has(-1) || sel.Has(1<<40) {
				t.Fatalf("round %d filter %+v: Select holds %d keys, want %d", round, f, sel.Len(), n)
			}
		}
		for qi := range 60 {
			q := Query{Terms: []string{words[rng.IntN(len(words))], words[rng.IntN(len(words))]}, K: 1 + rng.IntN(12), Filter: filters[qi%len(filters)]}
			if qi%3 == 2 { // a word repeated counts twice, as feedback weighs the query's words
				q.Terms = append(q.Terms, q.Terms[0])
			}
			got, want := index.Search(q), reference(docs, q)
			keys := []int64{-5, 1 << 40}
			for _, h := range got {
				keys = append(keys, h.Key)
			}
			for i, h := range index.Score(q.Terms, keys) { // Score agrees with Search
				if i < 2 && (h.Score != 0 || h.Matched != nil) || i >= 2 && (math.Abs(h.Score-got[i-2].Score) > 1e-4 || !reflect.DeepEqual(h.Matched, got[i-2].Matched)) {
					t.Fatalf("round %d query %+v: Score(%d) = %+v", round, q, keys[i], h)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("round %d query %+v: %d hits, want %d", round, q, len(got), len(want))
			}
			for i := range got {
				tie := math.Abs(got[i].Score-want[i].Score) <= 1e-4 // the reference orders scores within 1e-4 by key
				if got[i].Key != want[i].Key && !tie || math.Abs(got[i].Score-want[i].Score) > 1e-3 || !reflect.DeepEqual(got[i].Matched, want[i].Matched) {
					t.Fatalf("round %d query %+v hit %d: got %+v, want %+v", round, q, i, got[i], want[i])
				}
			}
		}
	}
}

func TestStemmingAndFolding(t *testing.T) {
	ix := New()
	ix.Put(Doc{Key: 1, Text: "Releasing the Café build", Attrs: Attrs{Project: "p"}})
	for _, q := range []string{"release", "releases", "cafe", "builds"} {
		if hits := ix.Search(Query{Terms: []string{q}, K: 5}); len(hits) != 1 {
			t.Errorf("query %q: %d hits", q, len(hits))
		}
	}
}

func TestDecodeRejectsCorruption(t *testing.T) {
	ix := New()
	ix.Put(Doc{Key: 7, Text: "some words here", Attrs: Attrs{Project: "p", Tags: []string{"x"}}})
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	data := buf.Bytes()
	if _, err := Decode(aligned(data)); err != nil {
		t.Fatalf("Decode of a good index: %v", err)
	}
	for _, bad := range [][]byte{nil, data[:len(data)-1], append(slices.Clone(data), 0), []byte("MNEMEBM25\x01")} {
		if _, err := Decode(aligned(bad)); err == nil {
			t.Errorf("Decode accepted %d corrupt bytes", len(bad))
		}
	}
}

func FuzzDecode(f *testing.F) {
	ix := New()
	ix.Put(Doc{Key: 7, Title: "t", Text: "some words here", Attrs: Attrs{Project: "p", Tags: []string{"x", "y"}}})
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := Decode(aligned(data))
		if err == nil {
			ix.Search(Query{Terms: []string{"words"}, K: 3, Filter: Filter{Tags: []string{"x"}}})
		}
	})
}

func BenchmarkSearch(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	ix := New()
	for i := range 100_000 {
		ix.Put(randomDoc(rng, int64(i)))
	}
	for b.Loop() {
		ix.Search(Query{Terms: []string{"release", "postgres", "cache"}, K: 10, Filter: Filter{Project: "p1"}})
	}
}

// TestCompaction: deleting most documents triggers compaction; searches and
// re-added keys stay right afterwards.
func TestCompaction(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ix := New()
	docs := map[int64]Doc{}
	for i := range 3000 {
		d := randomDoc(rng, int64(i))
		ix.Put(d)
		docs[d.Key] = d
	}
	for i := range 2500 {
		ix.Delete(int64(i))
		delete(docs, int64(i))
	}
	if len(ix.keys) >= 3000 {
		t.Fatalf("no compaction: %d document slots for %d live", len(ix.keys), ix.Len())
	}
	for i := range 100 {
		d := randomDoc(rng, int64(i))
		ix.Put(d)
		docs[d.Key] = d
	}
	for _, f := range []Filter{{}, {Tags: []string{"t2"}}, {Project: "p2", AllTags: true, Tags: []string{"t0", "t1"}}} {
		q := Query{Terms: []string{"release", "cache"}, K: 20, Filter: f}
		got, want := ix.Search(q), reference(docs, q)
		if len(got) != len(want) {
			t.Fatalf("filter %+v: %d hits, want %d", f, len(got), len(want))
		}
		for i := range got {
			if got[i].Key != want[i].Key {
				t.Fatalf("filter %+v hit %d: %d, want %d", f, i, got[i].Key, want[i].Key)
			}
		}
	}
}

// aligned copies b into 8-byte aligned memory, as a file read or map gives.
func aligned(b []byte) []byte {
	buf := make([]uint64, (len(b)+7)/8)
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)*8)[:len(b)]
	copy(out, b)
	return out
}

// TestDecodedIndexAcceptsWrites: an index over read-only bytes copies before
// it writes (appends reallocate; liveness is its own array).
func TestDecodedIndexAcceptsWrites(t *testing.T) {
	ix := New()
	for i := range 50 {
		ix.Put(Doc{Key: int64(i), Text: fmt.Sprintf("shared word%d", i), Attrs: Attrs{Project: "p", Tags: []string{"x"}}})
	}
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	data := aligned(buf.Bytes())
	frozen := slices.Clone(data)
	dec, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	dec.Delete(3)
	dec.Put(Doc{Key: 4, Text: "replaced", Attrs: Attrs{Project: "p"}})
	dec.Put(Doc{Key: 99, Text: "shared newcomer", Attrs: Attrs{Project: "q", Tags: []string{"y"}}})
	if !bytes.Equal(data, frozen) {
		t.Fatal("mutating a decoded index wrote into its source bytes")
	}
	if n := len(dec.Search(Query{Terms: []string{"shared"}, K: 100})); n != 49 {
		t.Fatalf("shared: %d hits, want 49", n)
	}
	if hits := dec.Search(Query{Terms: []string{"newcomer"}, K: 5, Filter: Filter{Tags: []string{"y"}}}); len(hits) != 1 || hits[0].Key != 99 {
		t.Fatalf("newcomer: %+v", hits)
	}
}

// TestLongQueryReadsEveryTerm: a query of many stems (here 120, more
// than one 64-bit word of a match set) scores as the reference does over
// every one of them, each as often as the query repeats it; stems the
// index lacks change nothing.
func TestLongQueryReadsEveryTerm(t *testing.T) {
	ix := New()
	docs := map[int64]Doc{}
	for i := range 120 { // word wN is in the documents N..119: w0 in all, w119 in one
		var ws []string
		for n := range i + 1 {
			ws = append(ws, fmt.Sprintf("w%d", n))
		}
		d := Doc{Key: int64(i), Text: strings.Join(ws, " ")}
		ix.Put(d)
		docs[d.Key] = d
	}
	var query []string // the commonest words first; w3 three times, absent words between
	for n := range 120 {
		query = append(query, fmt.Sprintf("w%d", n), fmt.Sprintf("absent%d", n))
	}
	query = append(query, "w3", "w3", "w100")
	got := ix.Search(Query{Terms: query, K: 200})
	want := reference(docs, Query{Terms: query, K: 200})
	if len(got) != len(want) || len(got) != 120 {
		t.Fatalf("%d hits, want %d (every document holds a query word)", len(got), len(want))
	}
	for i := range got {
		if got[i].Key != want[i].Key || math.Abs(got[i].Score-want[i].Score) > 1e-3*want[i].Score || !reflect.DeepEqual(got[i].Matched, want[i].Matched) {
			t.Fatalf("hit %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if top := got[0]; top.Key != 119 || len(top.Matched) != 120 {
		t.Fatalf("the document holding every query word is not first with all 120 matched: %+v", top)
	}
	once := ix.Search(Query{Terms: query[:240], K: 200}) // w3 once
	if at := len(got) - 4; got[at].Key != 3 || once[at].Key != 3 || !(got[at].Score > once[at].Score) {
		t.Fatalf("a word the query repeats weighs no more: %+v, once %+v", got[at], once[at])
	}
	for i, h := range ix.Score(query, []int64{119, 3}) { // Score reads the same terms
		if w := want[119-h.Key]; math.Abs(h.Score-w.Score) > 1e-3*w.Score || !reflect.DeepEqual(h.Matched, w.Matched) {
			t.Fatalf("Score %d: %+v, want %+v", i, h, w)
		}
	}
}

// TestSelectAgain: the same filter again, with no write between and no
// document expired since, is answered from the last selection; a write,
// another filter or a time across an expiry is selected anew, and changing
// the filter's lists afterwards changes nothing kept.
func TestSelectAgain(t *testing.T) {
	ix := New()
	ix.Put(Doc{Key: 1, Text: "a", Attrs: Attrs{Project: "p", Tags: []string{"x"}}})
	ix.Put(Doc{Key: 2, Text: "b", Attrs: Attrs{Project: "p", Expires: 50}})
	f := Filter{Project: "p", Tags: []string{"x"}, Now: 10}
	first := ix.Select(f)
	if again := ix.Select(f); again != first || first.Len() != 1 {
		t.Fatalf("the same filter again: %p (%d keys), want the first selection %p", again, again.Len(), first)
	}
	f.Tags[0] = "y" // the caller's list, changed: no longer the kept filter
	if s := ix.Select(f); s == first || s.Len() != 0 {
		t.Fatalf("tag y: %d keys from %p", s.Len(), s)
	}
	all := Filter{Project: "p", Now: 10}
	at10 := ix.Select(all)
	if at10.Len() != 2 {
		t.Fatalf("project p at 10: %d keys, want 2", at10.Len())
	}
	if s := ix.Select(Filter{Project: "p", Now: 49}); s != at10 { // nothing expired since 10
		t.Fatalf("project p at 49: selected anew")
	}
	at60 := ix.Select(Filter{Project: "p", Now: 60})
	if at60 == at10 || at60.Len() != 1 || at60.Has(2) {
		t.Fatalf("project p at 60, after key 2 expired at 50: %d keys", at60.Len())
	}
	if s := ix.Select(Filter{Project: "p", Now: 50}); s != at60 { // expiry is at or before Now
		t.Fatalf("project p at 50: selected anew")
	}
	if s := ix.Select(Filter{Project: "p", Now: 49}); s == at60 || s.Len() != 2 {
		t.Fatalf("project p at 49 again: %d keys", s.Len())
	}
	if s := ix.Select(Filter{Project: "p"}); s.Len() != 2 { // no expiry check at all
		t.Fatalf("project p, no time: %d keys", s.Len())
	}
	before := ix.Select(all)
	ix.Put(Doc{Key: 3, Text: "c", Attrs: Attrs{Project: "p"}})
	if s := ix.Select(all); s == before || s.Len() != 3 || !s.Has(3) {
		t.Fatalf("after a write: %d keys, has 3: %v", s.Len(), s.Has(3))
	}
	ix.Delete(1)
	if s := ix.Select(all); s.Len() != 2 || s.Has(1) {
		t.Fatalf("after a delete: %d keys, has 1: %v", s.Len(), s.Has(1))
	}
}

// TestDecodedFindsKeysEitherWay: a decoded index finds the document a
// write replaces or deletes by scanning its keys for the first scanMax
// writes (a key above every key it holds is absent without a scan) and
// through its key map after; either way it answers as an index
// that took the same writes without a snapshot between.
func TestDecodedFindsKeysEitherWay(t *testing.T) {
	doc := func(key, v int) Doc {
		return Doc{Key: int64(key), Text: fmt.Sprintf("shared w%d v%d", key, v), Attrs: Attrs{Project: "p"}}
	}
	fresh := New()
	for i := range 300 {
		fresh.Put(doc(i, 0))
	}
	fresh.Put(doc(5, 1)) // the snapshot's keys ascend but for the tail
	var buf bytes.Buffer
	fresh.WriteTo(&buf)
	dec, err := Decode(aligned(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * maxTail / 2 { // replace, delete, replace again: past the tail
		key := (i * 7) % 250
		if i%5 == 4 {
			key = 1000 + i // a new record: above every key held
		}
		for _, ix := range []*Index{fresh, dec} {
			switch i % 3 {
			case 1:
				ix.Delete(int64(key))
			default:
				ix.Put(doc(key, i))
			}
		}
		if i == 100 {
			check(t, fresh, dec)
			if dec.byKey != nil {
				t.Fatal("a few writes built the key map")
			}
		}
	}
	if dec.byKey == nil {
		t.Fatal("many writes never built the key map")
	}
	check(t, fresh, dec)
}

// check: dec answers searches and scores as fresh does.
func check(t *testing.T, fresh, dec *Index) {
	t.Helper()
	keys := []int64{0, 7, 14, 199, 1004, 5000, -1}
	for _, q := range []string{"shared", "w7", "v3", "w14 v64"} {
		want := fresh.Search(Query{Terms: strings.Fields(q), K: 300})
		got := dec.Search(Query{Terms: strings.Fields(q), K: 300})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded %d hits, fresh %d", q, len(got), len(want))
		}
		if got, want := dec.Score(strings.Fields(q), keys), fresh.Score(strings.Fields(q), keys); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decoded scores %+v, fresh %+v", q, got, want)
		}
	}
}

// TestDecodedWritesKeepTheView: documents written to a decoded index go
// beside the loaded attributes, tags and meta values, which stay a view of
// the snapshot's bytes (copying them cost a session start 7 MB); filtered
// searches answer as the reference does, after the writes, after
// encoding again, and after a compaction.
func TestDecodedWritesKeepTheView(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix, docs := randomIndex(rng, 400)
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	data := aligned(buf.Bytes())
	dec, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	within := func(p unsafe.Pointer) bool {
		at := uintptr(p)
		return at >= uintptr(unsafe.Pointer(&data[0])) && at < uintptr(unsafe.Pointer(&data[0]))+uintptr(len(data))
	}
	for i := range 30 { // new records and rewrites of loaded ones
		d := randomDoc(rng, int64(390+i))
		dec.Put(d)
		ix.Put(d)
		docs[d.Key] = d
	}
	if !within(unsafe.Pointer(&dec.attrs.base[0])) || !within(unsafe.Pointer(&dec.tags.base[0])) || !within(unsafe.Pointer(&dec.metas.base[0])) {
		t.Fatal("writing to a decoded index copied its loaded attributes")
	}
	same := func(stage string, ix *Index) {
		t.Helper()
		for _, f := range []Filter{{}, {Tags: []string{"t2"}}, {Project: "p2", AllTags: true, Tags: []string{"t0", "t1"}},
			{Meta: [][]string{{"tenant=1"}}}} {
			q := Query{Terms: []string{"release", "cache"}, K: 30, Filter: f}
			got, want := ix.Search(q), reference(docs, q)
			if len(got) != len(want) {
				t.Fatalf("%s, filter %+v: %d hits, want %d", stage, f, len(got), len(want))
			}
			for i := range got {
				if got[i].Key != want[i].Key {
					t.Fatalf("%s, filter %+v hit %d: %d, want %d", stage, f, i, got[i].Key, want[i].Key)
				}
			}
		}
	}
	same("fresh", ix)
	same("after writes", dec)
	buf.Reset()
	dec.WriteTo(&buf)
	again, err := Decode(aligned(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	same("encoded again", again)
	for i := range 300 {
		again.Delete(int64(i))
		delete(docs, int64(i))
	}
	same("compacted", again)
}

// TestDecodesVersion5: a snapshot of the format before the term directory
// (the same bytes without it) still loads and answers as the index it was
// written from, so an upgraded home's hooks need no rebuild; a version 5
// table out of order is refused.
func TestDecodesVersion5(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ix, _ := randomIndex(rng, 300)
	var buf bytes.Buffer
	ix.WriteTo(&buf)
	v6, err := Decode(aligned(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	last, _ := v6.termAt(len(v6.dir) - 1)
	old := slices.Clone(buf.Bytes()[:last.docs+8*last.n])
	copy(old, magic5)
	v5, err := Decode(aligned(old))
	if err != nil {
		t.Fatalf("version 5: %v", err)
	}
	for _, f := range []Filter{{}, {Tags: []string{"t1"}}, {Project: "p0"}} {
		q := Query{Terms: []string{"release", "cache", "postgres"}, K: 20, Filter: f}
		if got, want := v5.Search(q), v6.Search(q); len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("filter %+v: version 5 %v, version 6 %v", f, got, want)
		}
	}
	first, _ := v6.termAt(0)
	swapped := slices.Clone(old)
	swapped[first.name] = 0xff // the first term now sorts after the second
	if _, err := Decode(aligned(swapped)); err == nil {
		t.Fatal("a version 5 table out of order was accepted")
	}
}

// randomIndex is an index of n random documents, and the documents by key.
func randomIndex(rng *rand.Rand, n int) (*Index, map[int64]Doc) {
	ix, docs := New(), map[int64]Doc{}
	for i := range n {
		d := randomDoc(rng, int64(i))
		ix.Put(d)
		docs[d.Key] = d
	}
	return ix, docs
}
