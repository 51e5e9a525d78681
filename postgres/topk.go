package postgres

import (
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/index/bm25"
)

// The BM25 top k without reading whole posting lists: the threshold
// algorithm (Fagin). Each query term's postings are read best first
// (postings_impact orders them by what they add): a short list at once, a
// long one a few hundred at a time, then deeper. The records met are
// checked against the filter and completed by looking up their other
// terms' postings. A record not met yet adds at most, per term, what the
// last posting read from that term's list adds; once the k-th best score
// found beats the sum of these, no record not met can enter the top k.
// Scores are exact; a common term's list is read only as deep as its best
// postings matter.

// postings_impact (migration 0005) orders each term's postings by this
// key: BM25's saturation tf / (tf + k1·(1 − b) + k1·b·dl/avgdl) with k1 =
// 1.2, b = 0.5 (bm25.Params) and a reference mean length of 40. Another k1
// or b needs a migration that rebuilds the index: with a key of other
// constants factorBound bounds nothing, and every list is read whole.
const (
	impactSQL = "tf / (tf + 0.6::real + 0.015::real * dl)"
	impactK0  = 0.6
	impactC   = 0.015
)

// factorBound is the most tf / (tf + k0 + kdl·dl) can be for a posting
// whose impact key is at most x: x itself when the store's mean length is
// at most the reference one, else a little more.
func (q *lexQuery) factorBound(x float64) float64 {
	x *= 1 + 1e-6 // the key is computed in single precision
	if x >= 1 || math.Abs(q.k0-impactK0) > 1e-9 {
		return 1
	}
	rho := q.kdl / impactC
	if rho >= 1 {
		return x
	}
	return 1 / ((1 - rho) + rho/x)
}

// taDoc is what the search knows of a record.
type taDoc struct {
	rid   int64
	score float64      // what the terms in known add
	known bm25.TermSet // terms whose contribution is known (none, if not held)
	has   bm25.TermSet // terms it holds
	pass  int8         // 1: passes the filter, -1: does not, 0: not checked yet
}

// ta is one top-k search. A filter most records fail has it meet tens of
// thousands of records, each looked at again in every round: they sit in
// blocks (never copied as they grow), their term sets cut from shared
// arenas, so that meeting one allocates nothing of its own and a round
// reads them in order; they are found by rid through a table (docIndex),
// not a map.
type ta struct {
	q     *lexQuery
	w     *search
	k     int
	at    *docIndex    // by rid
	docs  [][]taDoc    // the records met, in blocks of docBlock
	arena []uint64     // what new term sets are cut from
	read  []int        // postings read of each term
	last  []lastKey    // where each term's list was read to
	tau   []float64    // the most an unread posting of each term adds
	done  bm25.TermSet // terms whose list is read through
	all   bm25.TermSet
	// What the term sets were cut from, and what an earlier search left.
	arenas [][]uint64
	spare  *taSpare
	cs     []contender // contenders' scratch
}

// top returns the BM25 top k among the records passing the filter, best
// first (ties: newer rid first). When few records pass a narrowing filter,
// it scores them all instead.
func (q *lexQuery) top(w *search, k int) ([]lexHit, error) {
	if w.exact {
		return q.filtered(w, k)
	}
	t := &ta{q: q, w: w, k: k, at: newDocIndex(), read: make([]int, len(q.terms)), last: make([]lastKey, len(q.terms)),
		tau: make([]float64, len(q.terms)), all: bm25.Full(len(q.terms)), spare: takeSpare()}
	t.cs = t.spare.cs
	defer t.release()
	for i := range t.last {
		t.last[i].key = float32(math.Inf(1)) // above every key
	}
	depth := make([]int, len(q.terms))
	for i, term := range q.terms {
		t.tau[i], depth[i] = term.ub, max(4*k, 256)
		if term.df <= shortList {
			depth[i] = int(term.df) + 1
		}
	}
	for {
		if err := t.readLists(depth); err != nil {
			return nil, err
		}
		settled, err := t.settleBest()
		if err != nil {
			return nil, err
		}
		if theta := t.theta(); settled && (t.done.Covers(nil, t.all) || theta > t.unseen()) {
			return t.result(), nil
		}
		t.deepen(depth)
	}
}

// How much each round does. Reading a posting costs about a twentieth of
// settling a record, and reading tightens every record's bound at once:
// lists of up to shortList postings are read through in the first round,
// and a round settles about settleBudget records before reading deeper
// instead (tuned on the recall benchmark's queries, k 10 and 50; variables
// for tests). Under a filter that passes a share of the records, a round
// settles up to settleBudget / share (at most 8 × settleBudget): θ is the
// k-th best of the records known to pass, and only settling finds them.
// At 100,000 records (hybrid, k 50) under a filter passing a tenth, 4096
// against 512: the median recall reads 3,400 postings instead of 10,200,
// and its client and server CPU drops from 62–77 to about 50 ms; without
// a filter 4096 costs the server about 5 ms more than 512.
var (
	shortList    int64 = 8192
	settleBudget       = 512
)

// settleFor is how many records a round settles under a filter that
// share of the records pass.
func settleFor(share float64) int {
	if share <= 0 || share >= 1 {
		return settleBudget
	}
	return int(min(float64(settleBudget)/share, float64(8*settleBudget)))
}

// settleBest settles the contenders, best bound first, in growing batches
// (θ rises as it goes, and fewer remain): all of them, or, while lists are
// left to read, about settleFor(share). It says whether none is left.
func (t *ta) settleBest() (bool, error) {
	n := 0
	for size := max(4*t.k, 128); ; size *= 4 {
		batch := t.contenders(size)
		if len(batch) == 0 {
			return true, nil
		}
		if n > 0 && n+len(batch) > settleFor(t.w.share) && !t.done.Covers(nil, t.all) {
			return false, nil
		}
		if err := t.settle(batch); err != nil {
			return false, err
		}
		n += len(batch)
	}
}

// deepen makes the next round read four times deeper into the lists whose
// unread postings could add the most (at least half as much as the
// list's that could add most): the others matter less.
func (t *ta) deepen(depth []int) {
	most := 0.0
	for i := range t.q.terms {
		if !t.done.Has(i) {
			most = max(most, t.tau[i])
		}
	}
	for i := range t.q.terms {
		if !t.done.Has(i) && t.tau[i] >= most/2 {
			depth[i] *= 4
		}
	}
}

// readListsSQL reads the next $5 postings of each term $1 (index $2 among
// the query's), best first: after the $4 first of those whose key is $3,
// the last key read (Infinity before any). The index orders postings of
// one key by their place in the table, the same in every statement of the
// snapshot; so a round reads on from where the last stopped instead of
// stepping over (OFFSET) every posting read before.
const readListsSQL = `SELECT t.i, p.rid, p.tf, p.dl, p.key FROM unnest($1::text[], $2::int[], $3::real[], $4::int[], $5::int[]) AS t(term, i, below, skip, lim)
	CROSS JOIN LATERAL (SELECT rid, tf, dl, ` + impactSQL + ` AS key FROM postings
	WHERE term = t.term AND ` + impactSQL + ` <= t.below ORDER BY ` + impactSQL + ` DESC OFFSET t.skip LIMIT t.lim) p`

// readLists reads each term's list down to its depth.
func (t *ta) readLists(depth []int) error {
	var stems []string
	var idx, skip, lim []int32
	var below []float32
	for i, term := range t.q.terms {
		if !t.done.Has(i) && depth[i] > t.read[i] {
			stems, idx = append(stems, term.stem), append(idx, int32(i))
			below, skip = append(below, t.last[i].key), append(skip, t.last[i].n)
			lim = append(lim, int32(depth[i]-t.read[i]))
		}
	}
	rows, err := t.w.tx.Query(t.w.ctx, readListsSQL, stems, idx, below, skip, lim)
	if err != nil {
		return err
	}
	got := make([]int, len(t.q.terms))
	binary := binaryRow(rows, 4, 8, 4, 4, 4)
	err = forRows(rows, func() error {
		var i int32
		var rid int64
		var tf, dl, key float32
		if v := rows.RawValues(); binary && sized(v, 4, 8, 4, 4, 4) { // tens of thousands of rows: no Scan
			i, rid = int32(be.Uint32(v[0])), int64(be.Uint64(v[1]))
			tf, dl, key = f32(v[2]), f32(v[3]), f32(v[4])
		} else {
			var err error
			if i, rid, tf, dl, key, err = scanPosting(rows); err != nil {
				return err
			}
		}
		if i < 0 || int(i) >= len(got) {
			return fmt.Errorf("posting of term %d, of %d", i, len(got))
		}
		got[i]++
		t.last[i].follow(key)
		t.tau[i] = min(t.tau[i], t.q.terms[i].w*t.q.factorBound(float64(key)))
		t.learn(rid, int(i), t.q.add(int(i), tf, dl))
		return nil
	})
	for j, i := range idx {
		t.read[i] += got[i]
		if got[i] < int(lim[j]) {
			t.done.Add(int(i))
			t.tau[i] = 0
		}
	}
	return err
}

// scanPosting reads a row of readListsSQL with Scan. Its own variables
// escape to the heap: the caller's, one set a posting, do not.
func scanPosting(rows pgx.Rows) (i int32, rid int64, tf, dl, key float32, err error) {
	err = rows.Scan(&i, &rid, &tf, &dl, &key)
	return
}

// lastKey is the last key read from a list, and how many postings of that
// key were read.
type lastKey struct {
	key float32
	n   int32
}

// follow notes a posting of key read after the others, no higher.
func (l *lastKey) follow(key float32) {
	if key == l.key {
		l.n++
		return
	}
	l.key, l.n = key, 1
}

// doc returns what is known of the record rid, meeting it if new.
func (t *ta) doc(rid int64) *taDoc {
	if n := t.at.get(rid); n > 0 {
		return &t.docs[(n-1)/docBlock][(n-1)%docBlock]
	}
	words := len(t.all)
	if len(t.arena) < 2*words {
		t.arena = t.newArena(2 * words * docBlock)
	}
	known, has := t.arena[:words:words], t.arena[words:2*words:2*words]
	t.arena = t.arena[2*words:]
	if n := len(t.docs); n == 0 || len(t.docs[n-1]) == docBlock {
		t.docs = append(t.docs, t.newBlock())
	}
	b := &t.docs[len(t.docs)-1]
	*b = append(*b, taDoc{rid: rid, known: known, has: has})
	t.at.put(rid, int32((len(t.docs)-1)*docBlock+len(*b)))
	return &(*b)[len(*b)-1]
}

// docBlock is how many records a block of ta.docs holds.
const docBlock = 1024

// met yields every record met.
func (t *ta) met(yield func(*taDoc) bool) {
	for _, b := range t.docs {
		for i := range b {
			if !yield(&b[i]) {
				return
			}
		}
	}
}

// learn adds what term i adds to the record rid, once.
func (t *ta) learn(rid int64, i int, add float64) {
	d := t.doc(rid)
	if !d.known.Has(i) {
		d.score += add
		d.known.Add(i)
		d.has.Add(i)
	}
}

// theta is the k-th best score known among the records passing the filter
// (-Inf while fewer pass): the k-th best full score is no lower.
func (t *ta) theta() float64 {
	best := &floatHeap{make(sort.Float64Slice, 0, t.k)} // the k best, worst on top
	for d := range t.met {
		switch {
		case d.pass != 1:
		case best.Len() < t.k:
			heap.Push(best, d.score)
		case d.score > best.Float64Slice[0]:
			best.Float64Slice[0] = d.score
			heap.Fix(best, 0)
		}
	}
	if best.Len() < t.k {
		return math.Inf(-1)
	}
	return best.Float64Slice[0]
}

// floatHeap is a min-heap of scores for container/heap.
type floatHeap struct{ sort.Float64Slice }

func (h *floatHeap) Push(x any) { h.Float64Slice = append(h.Float64Slice, x.(float64)) }

func (h *floatHeap) Pop() any {
	n := len(h.Float64Slice) - 1
	x := h.Float64Slice[n]
	h.Float64Slice = h.Float64Slice[:n]
	return x
}

// bound is the most d's full score can be: its known score, and for each
// term neither known of it nor read through, the most an unread posting
// adds.
func (t *ta) bound(d *taDoc) float64 {
	b := d.score
	for w, all := range t.all {
		missing := all &^ (word(d.known, w) | word(t.done, w))
		for missing != 0 {
			b += t.tau[w*64+bits.TrailingZeros64(missing)]
			missing &= missing - 1
		}
	}
	return b
}

// word is word w of s (0 past its end).
func word(s bm25.TermSet, w int) uint64 {
	if w < len(s) {
		return s[w]
	}
	return 0
}

// unseen is the most a record not seen yet can score.
func (t *ta) unseen() float64 {
	var b float64
	for i := range t.q.terms {
		if !t.done.Has(i) {
			b += t.tau[i]
		}
	}
	return b
}

// contenders returns up to size records, best bound first, that may
// still reach the top k (their bound reaches θ) but are not settled: not
// known to pass the filter, or not known in full.
func (t *ta) contenders(size int) []int64 {
	theta := t.theta()
	cs := t.cs[:0]
	for d := range t.met {
		if d.pass == -1 || (d.pass == 1 && d.known.Covers(t.done, t.all)) {
			continue
		}
		if b := t.bound(d); b >= theta {
			cs = append(cs, contender{d.rid, b})
		}
	}
	if len(cs) > size { // only which are best matters, not their order
		slices.SortFunc(cs, func(a, b contender) int { return cmpFloat(b.bound, a.bound) })
	}
	out := make([]int64, min(size, len(cs)))
	for i := range out {
		out[i] = cs[i].rid
	}
	t.cs = cs
	return out
}

// contender is a record that may reach the top k, and its bound.
type contender struct {
	rid   int64
	bound float64
}

// settleSQL checks the records $2 against the filter and reads the
// postings of the terms $1 in those that pass (a row with no term for one
// holding none of them).
const settleSQL = `SELECT r.rid, p.term, p.tf, p.dl FROM records r LEFT JOIN LATERAL
	(SELECT p.term, p.tf, p.dl FROM postings p WHERE p.term = ANY($1) AND p.rid = r.rid OFFSET 0) p ON true
	WHERE r.rid = ANY($2) AND %s`

// settle checks the records rids against the filter and completes the
// scores of those that pass.
func (t *ta) settle(rids []int64) error {
	var missing bm25.TermSet
	for _, rid := range rids {
		d := t.doc(rid)
		d.pass = -1
		for i := range t.q.terms {
			if !d.known.Has(i) && !t.done.Has(i) {
				missing.Add(i)
			}
		}
	}
	var stems []string
	index := map[string]int{}
	for i, term := range t.q.terms {
		if missing.Has(i) {
			stems, index[term.stem] = append(stems, term.stem), i
		}
	}
	a := args{stems, rids}
	rows, err := t.w.tx.Query(t.w.ctx, sqlf(settleSQL, where(t.w.q.Filter, &a)), a...)
	if err != nil {
		return err
	}
	err = forRows(rows, func() error {
		var rid int64
		var term *string
		var tf, dl *float32
		if err := rows.Scan(&rid, &term, &tf, &dl); err != nil {
			return err
		}
		d := t.doc(rid)
		d.pass = 1
		if i, ok := index[deref(term)]; ok && !d.known.Has(i) { // (term, rid) is unique: once each
			d.score += t.q.add(i, *tf, *dl)
			d.has.Add(i)
		}
		return nil
	})
	for _, rid := range rids {
		if d := t.doc(rid); d.pass == 1 {
			d.known.AddAll(missing)
		}
	}
	return err
}

// result is the top k of the records known in full.
func (t *ta) result() []lexHit {
	var hits []lexHit
	for d := range t.met {
		if d.pass == 1 && d.known.Covers(t.done, t.all) {
			hits = append(hits, lexHit{rid: d.rid, score: d.score, has: d.has})
		}
	}
	sortHits(hits)
	hits = hits[:min(t.k, len(hits))]
	for i := range hits { // its arena goes to another search
		hits[i].has = slices.Clone(hits[i].has)
	}
	return hits
}

// filteredSQL reads the query terms' postings ($1) in the records passing
// the filter, record by record.
const filteredSQL = `SELECT p.rid, p.term, p.tf, p.dl FROM records r CROSS JOIN LATERAL
	(SELECT p.rid, p.term, p.tf, p.dl FROM postings p WHERE p.term = ANY($1) AND p.rid = r.rid OFFSET 0) p WHERE %s`

// filtered scores every record passing the filter: few do.
func (q *lexQuery) filtered(w *search, k int) ([]lexHit, error) {
	a := args{q.stems()}
	cond := where(w.q.Filter, &a)
	rows, err := w.tx.Query(w.ctx, sqlf(filteredSQL, cond), a...)
	if err != nil {
		return nil, err
	}
	index := q.termIndex()
	at := map[int64]*lexHit{}
	err = forRows(rows, func() error {
		var rid int64
		var term string
		var tf, dl float32
		if err := rows.Scan(&rid, &term, &tf, &dl); err != nil {
			return err
		}
		h := at[rid]
		if h == nil {
			h = &lexHit{rid: rid}
			at[rid] = h
		}
		i := index[term]
		h.score += q.add(i, tf, dl)
		h.has.Add(i)
		return nil
	})
	hits := make([]lexHit, 0, len(at))
	for _, h := range at {
		hits = append(hits, *h)
	}
	sortHits(hits)
	return hits[:min(k, len(hits))], err
}

// forRows calls fn for each row and closes rows.
func forRows(rows pgx.Rows, fn func() error) error {
	defer rows.Close()
	for rows.Next() {
		if err := fn(); err != nil {
			return err
		}
	}
	return rows.Err()
}
