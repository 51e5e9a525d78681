// Package bm25 is an in-memory BM25 index over records' title, text and
// tags, with the attributes recall filters on kept beside each document, so
// a filtered query returns its true top-k. Scoring is term-at-a-time into a
// dense accumulator: a few milliseconds even when a query term occurs in
// half of 100,000 documents.
package bm25

import (
	"container/heap"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// BM25 parameters and field weights: a word in a title or a tag says more
// about a record than one in its body. b is lower than the usual 0.75: a
// long record is penalised less for its length (chat turns run from 1 to
// 80 words, notes and documents further). Measured with `mneme bench`
// (docs/performance.md, "Lexical scoring and feedback").
const (
	k1          = 1.2
	b           = 0.5
	titleWeight = 2.0
	tagWeight   = 1.5
)

// ContextWeight weighs a document's context (the turns beside it in a
// conversation): it says what the document is about, less than its text.
var ContextWeight float32 = 0.5

// Doc is what the index needs of a record.
type Doc struct {
	Key     int64 // the store's identity for the record
	Title   string
	Text    string
	Context string // the turns beside it in its conversation, if any
	Attrs   Attrs
}

// Attrs are the filterable attributes of a document.
type Attrs struct {
	Project, Type, Kind, Status, Sensitivity, Key string
	Session, Run                                  string
	Tags                                          []string
	Meta                                          []string // values a Filter.Meta condition may name
	Expires                                       int64    // Unix nanoseconds; 0: never
	Event                                         int64    // occurred_at, else created_at
	Created                                       int64
}

// Index is safe for concurrent use.
// Documents are numbered densely; per-document data lives in parallel
// arrays without pointers, so scoring reads compact memory and the garbage
// collector has nothing to scan in them.
type Index struct {
	mu       sync.RWMutex
	terms    map[string]*plist // terms written since load (see terms.go)
	dir      []uint64          // the loaded term table's directory (see terms.go)
	tableEnd int               // where the term table ends in raw
	raw      []byte            // the bytes a decoded index reads in place
	keys     []int64
	lens     []float32 // weighted length
	alive    []bool
	attrs    seg[attrs]
	tags     seg[uint32]      // every document's tag ids; attrs hold offsets into it
	metas    seg[uint32]      // every document's meta value ids, likewise
	byKey    map[int64]uint32 // nil in a decoded index until needed (see find)
	sorted   int              // a decoded index's keys ascend strictly up to here (see lookup)
	maxKey   int64            // at least the largest key of a document, dead or alive
	strs     interner
	live     int
	totalLen float64
	gen      uint64 // bumped by every write: a selection is of one generation
	// selected are the last two Selects, which a recall's second search,
	// the next recall, or a recall's search of a time asks again.
	selected [2]atomic.Pointer[selection]
	byEvent  atomic.Pointer[[]uint32] // the documents by event time, once a Select asked for a span (events.go)
	evMu     sync.Mutex               // builds byEvent
}

type plist struct {
	docs []uint32
	tfs  []float32 // weighted term frequency
}

type attrs struct {
	project, typ, kind, status, sens, key uint32
	session, run                          uint32
	tagOff, tagLen                        uint32 // the document's tags: Index.tags[tagOff:tagOff+tagLen]
	metaOff, metaLen                      uint32 // its meta values: Index.metas[metaOff:metaOff+metaLen]
	expires, event, created               int64
}

// New returns an empty index.
func New() *Index {
	return &Index{terms: map[string]*plist{}, byKey: map[int64]uint32{}, strs: newInterner(), maxKey: math.MinInt64}
}

// Len returns the number of live documents.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Put adds d, replacing any document with the same key.
func (ix *Index) Put(d Doc) {
	tf, length := Weights(d)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	ix.remove(d.Key)
	n := uint32(len(ix.keys))
	ix.appendDoc(d.Key, length, ix.attrsOf(d.Attrs))
	ix.addEvent(n)
	if ix.byKey != nil {
		ix.byKey[d.Key] = n
	}
	ix.live++
	ix.totalLen += float64(length)
	for t, f := range tf {
		p := ix.writable(t)
		p.docs = append(p.docs, n)
		p.tfs = append(p.tfs, f)
	}
}

// Weights returns d's weighted term frequencies by stemmed term and its
// weighted length, as the index scores them: a store that keeps postings
// itself (PostgreSQL) scores exactly as this index does.
func Weights(d Doc) (map[string]float32, float32) {
	tf := map[string]float32{}
	var length float32
	for _, f := range []struct {
		text   string
		weight float32
	}{{d.Title, titleWeight}, {d.Text, 1}, {d.Context, ContextWeight}} {
		for _, t := range terms(f.text) {
			tf[t] += f.weight
			length += f.weight
		}
	}
	for _, tag := range d.Attrs.Tags {
		for _, t := range terms(tag) {
			tf[t] += tagWeight
			length += tagWeight
		}
	}
	return tf, length
}

// Params returns the BM25 parameters k1 and b.
func Params() (float64, float64) { return k1, b }

// Delete removes the document with key, if present.
func (ix *Index) Delete(key int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.gen++
	ix.remove(key)
}

func (ix *Index) remove(key int64) {
	n, ok := ix.find(key)
	if !ok {
		return
	}
	if ix.byKey != nil {
		delete(ix.byKey, key)
	}
	ix.alive[n] = false
	ix.live--
	ix.totalLen -= float64(ix.lens[n])
	if dead := len(ix.keys) - ix.live; dead > 1024 && dead > ix.live/4 {
		ix.compact()
	}
}

// find returns the live document with key, for a write: a decoded index
// builds its key map only once the documents written since its snapshot
// are too many to scan (see lookup).
func (ix *Index) find(key int64) (uint32, bool) {
	if !ix.scannable() {
		ix.buildKeyMap()
	}
	return ix.lookup(key)
}

// scannable reports whether lookup can go without a key map.
func (ix *Index) scannable() bool { return ix.byKey != nil || len(ix.keys)-ix.sorted <= maxTail }

// maxTail is how many documents written since the snapshot lookup scans.
const maxTail = 4096

// lookup returns the live document with key without changing ix. A
// decoded index has no key map, and a process catching up on a session's
// records (or scoring a few) needs a handful of keys, not a map of
// 100,000: the keys it loaded ascend up to sorted (a snapshot is written
// in key order, mostly), so it binary-searches those and scans the rest
// from the newest; a key above every key is absent at once.
func (ix *Index) lookup(key int64) (uint32, bool) {
	if ix.byKey != nil {
		n, ok := ix.byKey[key]
		return n, ok
	}
	if key > ix.maxKey {
		return 0, false
	}
	for n := len(ix.keys) - 1; n >= ix.sorted; n-- {
		if ix.keys[n] == key && ix.alive[n] {
			return uint32(n), true
		}
	}
	if n, ok := slices.BinarySearch(ix.keys[:ix.sorted], key); ok && ix.alive[n] {
		return uint32(n), true
	}
	return 0, false
}

// buildKeyMap builds the key map of a decoded index, which starts without
// one (most processes only search).
func (ix *Index) buildKeyMap() {
	if ix.byKey != nil {
		return
	}
	ix.byKey = make(map[int64]uint32, len(ix.keys))
	for n, k := range ix.keys {
		if ix.alive[n] {
			ix.byKey[k] = uint32(n)
		}
	}
}

// appendDoc adds a live document; a's tags are already in ix.tags.
func (ix *Index) appendDoc(key int64, length float32, a attrs) {
	ix.maxKey = max(ix.maxKey, key)
	ix.keys = append(ix.keys, key)
	ix.lens = append(ix.lens, length)
	ix.alive = append(ix.alive, true)
	ix.attrs.add(a)
}

// docTags returns document n's tag ids.
func (ix *Index) docTags(n uint32) []uint32 {
	a := ix.attrs.at(int(n))
	return ix.tags.span(a.tagOff, a.tagLen)
}

// compact drops dead documents from the postings and renumbers the rest.
func (ix *Index) compact() {
	keys, lens, alive, docs, tags, metas := ix.keys, ix.lens, ix.alive, ix.attrs, ix.tags, ix.metas
	ix.byEvent.Store(nil) // renumbered: built again when asked
	ix.keys, ix.lens, ix.alive = nil, nil, nil
	ix.attrs, ix.tags, ix.metas = seg[attrs]{}, seg[uint32]{}, seg[uint32]{}
	ix.byKey = make(map[int64]uint32, ix.live)
	renum := make([]uint32, len(keys))
	for n, key := range keys {
		if alive[n] {
			renum[n] = uint32(len(ix.keys))
			ix.byKey[key] = renum[n]
			a := *docs.at(n)
			docTags, docMetas := tags.span(a.tagOff, a.tagLen), metas.span(a.metaOff, a.metaLen)
			a.tagOff, a.metaOff = uint32(ix.tags.len()), uint32(ix.metas.len())
			ix.tags.add(docTags...)
			ix.metas.add(docMetas...)
			ix.appendDoc(key, lens[n], a)
		}
	}
	terms := map[string]*plist{}
	ix.eachTerm(func(t string, p *plist) {
		out := &plist{}
		for i, n := range p.docs {
			if int(n) < len(alive) && alive[n] {
				out.docs = append(out.docs, renum[n])
				out.tfs = append(out.tfs, p.tfs[i])
			}
		}
		if len(out.docs) > 0 {
			terms[strings.Clone(t)] = out
		}
	})
	ix.terms, ix.dir = terms, nil
}

// Hit is one search result.
type Hit struct {
	Key     int64
	Score   float64
	Matched []string // the query terms the document contains
}

// Query is a search: folded query words, how many hits, and a filter.
type Query struct {
	Terms  []string
	K      int
	Filter Filter
	// Within, when given, is Select's answer to Filter: if it holds at
	// most WithinMax documents, they are scored one by one instead of by
	// walking the posting lists (a recall's search of the day a question
	// names reads ~270 documents of 100,000). The result is the same.
	Within *KeySet
}

// WithinMax bounds the documents a search scores one by one (Query.Within):
// each term costs a binary search per document in a long list.
const WithinMax = 2000

// accumulators are reused between searches: one float per document.
var accPool = sync.Pool{New: func() any { return &accumulator{} }}

type accumulator struct {
	score   []float32 // 0: no query term in the document (a term adds more than 0)
	touched []uint32
}

// Search returns the top K documents passing the filter, best first (ties:
// newer key first).
func (ix *Index) Search(q Query) []Hit {
	if q.Within != nil && q.Within.Len() <= WithinMax {
		return ix.searchWithin(q)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	match, ok := ix.compile(q.Filter)
	if !ok || ix.live == 0 || q.K <= 0 {
		return nil
	}
	acc := accPool.Get().(*accumulator)
	defer accPool.Put(acc)
	if len(acc.score) < len(ix.keys) {
		acc.score = make([]float32, len(ix.keys))
	}
	avg := float32(ix.totalLen / float64(ix.live))
	terms := ix.queryTerms(q.Terms)
	for _, t := range terms {
		ix.addAll(acc, t, avg)
	}
	h := &hitHeap{}
	for _, d := range acc.touched {
		hit := scored{doc: d, key: ix.keys[d], score: acc.score[d]}
		switch full := h.Len() == q.K; { // the filter is checked only for a document that would enter
		case !full && match(d):
			heap.Push(h, hit)
		case full && hit.better((*h)[0]) && match(d):
			(*h)[0] = hit
			heap.Fix(h, 0)
		}
	}
	for _, d := range acc.touched {
		acc.score[d] = 0
	}
	acc.touched = acc.touched[:0]
	return ix.hits(h, q.Terms, terms)
}

// hits empties h into hits, best first, with the query words each matched.
func (ix *Index) hits(h *hitHeap, words []string, terms []queryTerm) []Hit {
	out := make([]Hit, h.Len())
	docs := make([]uint32, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		s := heap.Pop(h).(scored)
		out[i], docs[i] = Hit{Key: s.key, Score: float64(s.score)}, s.doc
	}
	ix.setMatched(words, terms, out, docs)
	return out
}

// searchWithin is Search over the documents of q.Within, scored one by one
// in the order and the precision addAll scores them (so the scores and the
// order are Search's), the filter checked again (a write may have come
// between Select and now).
func (ix *Index) searchWithin(q Query) []Hit {
	ix.ensureKeyMap()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	match, ok := ix.compile(q.Filter)
	if !ok || ix.live == 0 || q.K <= 0 {
		return nil
	}
	var docs []uint32
	for _, key := range q.Within.Keys() {
		if d, ok := ix.lookup(key); ok && match(d) {
			docs = append(docs, d)
		}
	}
	slices.Sort(docs)
	want := make(map[uint32]int, len(docs))
	for i, d := range docs {
		want[d] = i
	}
	score := make([]float32, len(docs))
	avg := float32(ix.totalLen / float64(ix.live))
	terms := ix.queryTerms(q.Terms)
	for _, t := range terms {
		w := t.count * t.idf
		ix.eachWanted(t.p, docs, want, func(j int, d uint32, i int) {
			tf := t.p.tfs[j]
			score[i] += w * tf * (k1 + 1) / (tf + k1*(1-b+b*ix.lens[d]/avg))
		})
	}
	h := &hitHeap{}
	for i, d := range docs {
		hit := scored{doc: d, key: ix.keys[d], score: score[i]}
		switch {
		case hit.score == 0: // no query term
		case h.Len() < q.K:
			heap.Push(h, hit)
		case hit.better((*h)[0]):
			(*h)[0] = hit
			heap.Fix(h, 0)
		}
	}
	return ix.hits(h, q.Terms, terms)
}

// addAll adds every posting of t. Every term's whole list is read: for a
// query of 200 words, pruning the lists of common terms (MaxScore) cost
// twice the CPU time it saved (BenchmarkSearch).
func (ix *Index) addAll(acc *accumulator, t queryTerm, avg float32) {
	p, w := t.p, t.count*t.idf
	for i, d := range p.docs {
		if int(d) >= len(ix.alive) || !ix.alive[d] { // the bound guards against a corrupt snapshot
			continue
		}
		tf := p.tfs[i]
		if acc.score[d] == 0 {
			acc.touched = append(acc.touched, d)
		}
		acc.score[d] += w * tf * (k1 + 1) / (tf + k1*(1-b+b*ix.lens[d]/avg))
	}
}

// setMatched sets the matched words of the hits, of documents docs: which
// terms a document holds is looked up for the few hits, not tracked for
// every document scored, so a query may have any number of terms.
func (ix *Index) setMatched(words []string, terms []queryTerm, hits []Hit, docs []uint32) {
	want := make(map[uint32]int, len(docs))
	for i, d := range docs {
		want[d] = i
	}
	sorted := slices.Clone(docs)
	slices.Sort(sorted)
	has := make([]TermSet, len(hits))
	for ti, t := range terms {
		ix.eachWanted(t.p, sorted, want, func(_ int, _ uint32, i int) { has[i].Add(ti) })
	}
	wt := wordTerms(words, terms)
	for i := range hits {
		if !has[i].Empty() {
			hits[i].Matched = matchedWords(words, wt, has[i])
		}
	}
}

// queryTerm is a stem of a query that the index holds: a word the query
// repeats (as feedback weighs the query's own words) counts that many
// times, its postings read once.
type queryTerm struct {
	stem  string
	count float32
	p     *plist
	df    int
	idf   float32
}

// queryTerms groups the words of a query by stem, in query order, keeping
// the stems of live documents, each counted as often as the query has it
// (BM25's query term frequency).
func (ix *Index) queryTerms(words []string) []queryTerm {
	var out []queryTerm
	at := map[string]int{}
	for _, w := range words {
		s := Stem(w)
		if j, ok := at[s]; ok {
			if j >= 0 {
				out[j].count++
			}
			continue
		}
		p := ix.postings(s)
		df := 0
		if p != nil && len(p.tfs) == len(p.docs) {
			df = ix.df(p)
		}
		if df == 0 {
			at[s] = -1
			continue
		}
		at[s] = len(out)
		out = append(out, queryTerm{stem: s, count: 1, p: p, df: df, idf: ix.idf(df)})
	}
	return out
}

// df is the number of live documents in a posting list.
func (ix *Index) df(p *plist) int {
	df := 0
	for _, d := range p.docs {
		if int(d) < len(ix.alive) && ix.alive[d] {
			df++
		}
	}
	return df
}

// idf is the inverse document frequency of a term in df of the live
// documents.
func (ix *Index) idf(df int) float32 {
	n := float64(ix.live)
	return float32(math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)))
}

// wordTerms maps each word of a query to the index of its stem in terms,
// or -1.
func wordTerms(words []string, terms []queryTerm) []int {
	at := make(map[string]int, len(terms))
	for i, t := range terms {
		at[t.stem] = i
	}
	out := make([]int, len(words))
	for i, w := range words {
		out[i] = -1
		if j, ok := at[Stem(w)]; ok {
			out[i] = j
		}
	}
	return out
}

// matchedWords returns the words of a query (once each, in query order)
// whose term (wordTerm, from wordTerms) is in has.
func matchedWords(words []string, wordTerm []int, has TermSet) []string {
	var out []string
	for i, w := range words {
		if t := wordTerm[i]; t >= 0 && has.Has(t) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

type scored struct {
	doc   uint32
	key   int64
	score float32
}

func (s scored) better(o scored) bool {
	return s.score > o.score || (s.score == o.score && s.key > o.key)
}

// hitHeap is a min-heap: the worst of the current top k on top.
type hitHeap []scored

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return h[j].better(h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(scored)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Score returns the BM25 score and matched terms of each live document in
// keys (in that order; a missing or non-matching key scores 0), as Search
// would score it. Hybrid recall uses it to give the lexical score of the
// records only the vector lane found.
func (ix *Index) Score(terms []string, keys []int64) []Hit {
	ix.mu.RLock()
	scannable := ix.scannable()
	ix.mu.RUnlock()
	if !scannable {
		ix.ensureKeyMap()
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([]Hit, len(keys))
	want := make(map[uint32]int, len(keys))
	var docs []uint32 // want's documents, ascending
	for i, k := range keys {
		out[i].Key = k
		if n, ok := ix.lookup(k); ok {
			want[n] = i
			docs = append(docs, n)
		}
	}
	if ix.live == 0 || len(want) == 0 {
		return out
	}
	slices.Sort(docs)
	avg := float32(ix.totalLen / float64(ix.live))
	qt := ix.queryTerms(terms)
	has := make([]TermSet, len(keys))
	for qi, t := range qt {
		p, w := t.p, t.count*t.idf
		ix.eachWanted(p, docs, want, func(j int, d uint32, i int) {
			tf := p.tfs[j]
			out[i].Score += float64(w * tf * (k1 + 1) / (tf + k1*(1-b+b*ix.lens[d]/avg)))
			has[i].Add(qi)
		})
	}
	wt := wordTerms(terms, qt)
	for i := range out {
		if !has[i].Empty() {
			out[i].Matched = matchedWords(terms, wt, has[i])
		}
	}
	return out
}

// eachWanted calls fn with the position in p, the document and its index
// in want of each live document of docs (ascending; want maps them) that
// p lists. A list much longer than docs is binary-searched for each (lists
// are ascending: documents are numbered as they come, and compaction keeps
// their order); a shorter one is walked.
func (ix *Index) eachWanted(p *plist, docs []uint32, want map[uint32]int, fn func(j int, d uint32, i int)) {
	if len(p.docs) > 16*len(docs) {
		for _, d := range docs {
			if j, ok := slices.BinarySearch(p.docs, d); ok && ix.alive[d] {
				fn(j, d, want[d])
			}
		}
		return
	}
	for j, d := range p.docs {
		if i, ok := want[d]; ok && ix.alive[d] {
			fn(j, d, i)
		}
	}
}

// ensureKeyMap builds the key map of a decoded index on first use.
func (ix *Index) ensureKeyMap() {
	ix.mu.RLock()
	built := ix.byKey != nil
	ix.mu.RUnlock()
	if !built {
		ix.mu.Lock()
		ix.buildKeyMap()
		ix.mu.Unlock()
	}
}
