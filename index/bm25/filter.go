package bm25

import (
	"math"
	"math/bits"
	"reflect"
	"slices"
)

// Filter restricts a search. Zero values do not restrict.
type Filter struct {
	Project, Key       string
	Session, Run       string
	Types, Kinds       []string
	Statuses           []string // any of
	Tags               []string
	AllTags            bool
	Since, Until       int64 // bounds on Event, inclusive; 0: open
	CreatedBefore      int64 // 0: open
	Now                int64 // documents with Expires <= Now are excluded; 0: no expiry check
	ExcludeStatus      string
	ExcludeSensitivity string
	// Meta are conditions that must all hold: a document passes one when
	// it has any of its values (see Attrs.Meta).
	Meta [][]string
}

// compile turns f into a predicate over interned attributes. ok is false
// when f names a value no document has, so nothing can match.
func (ix *Index) compile(f Filter) (match func(doc uint32) bool, ok bool) {
	id := func(s string) (uint32, bool) { v, ok := ix.strs.ids[s]; return v, ok }
	ids := func(ss []string) ([]uint32, bool) {
		var out []uint32
		for _, s := range ss {
			if v, ok := id(s); ok {
				out = append(out, v)
			}
		}
		return out, len(out) > 0
	}
	var project, key, session, run uint32
	for _, one := range []struct {
		want string
		out  *uint32
	}{{f.Project, &project}, {f.Key, &key}, {f.Session, &session}, {f.Run, &run}} {
		if one.want != "" {
			if *one.out, ok = id(one.want); !ok {
				return nil, false
			}
		}
	}
	types, okT := ids(f.Types)
	kinds, okK := ids(f.Kinds)
	statuses, okS := ids(f.Statuses)
	tags, okG := ids(f.Tags)
	if (len(f.Types) > 0 && !okT) || (len(f.Kinds) > 0 && !okK) || (len(f.Statuses) > 0 && !okS) || (len(f.Tags) > 0 && !okG) ||
		(f.AllTags && len(tags) < len(f.Tags)) {
		return nil, false
	}
	meta, ok := ix.compileMeta(f.Meta)
	if !ok {
		return nil, false
	}
	exStatus, hasExStatus := id(f.ExcludeStatus)
	exSens, hasExSens := id(f.ExcludeSensitivity)
	hasExStatus = hasExStatus && f.ExcludeStatus != ""
	hasExSens = hasExSens && f.ExcludeSensitivity != ""
	return func(doc uint32) bool {
		a := ix.attrs.at(int(doc))
		switch { // cheap, often selective checks first
		case f.Since != 0 && a.event < f.Since,
			f.Until != 0 && a.event > f.Until,
			f.Project != "" && a.project != project,
			hasExStatus && a.status == exStatus,
			hasExSens && a.sens == exSens,
			f.Now != 0 && a.expires != 0 && a.expires <= f.Now,
			f.Key != "" && a.key != key,
			f.Session != "" && a.session != session,
			f.Run != "" && a.run != run,
			f.CreatedBefore != 0 && a.created >= f.CreatedBefore,
			len(types) > 0 && !slices.Contains(types, a.typ),
			len(kinds) > 0 && !slices.Contains(kinds, a.kind),
			len(statuses) > 0 && !slices.Contains(statuses, a.status),
			len(meta) > 0 && !ix.hasMeta(doc, meta):
			return false
		case len(tags) == 0:
			return true
		}
		have, n := ix.docTags(doc), 0
		for _, t := range tags {
			if slices.Contains(have, t) {
				n++
			}
		}
		return n == len(tags) || (!f.AllTags && n > 0)
	}, true
}

// interner maps attribute strings to small ids.
type interner struct {
	ids  map[string]uint32
	strs []string
}

func newInterner() interner { return interner{ids: map[string]uint32{}} }

func (in *interner) id(s string) uint32 {
	if v, ok := in.ids[s]; ok {
		return v
	}
	v := uint32(len(in.strs))
	in.ids[s] = v
	in.strs = append(in.strs, s)
	return v
}

// attrsOf interns a's strings and appends its tags to the tag arena.
func (ix *Index) attrsOf(a Attrs) attrs {
	in := &ix.strs
	out := attrs{project: in.id(a.Project), typ: in.id(a.Type), kind: in.id(a.Kind), status: in.id(a.Status),
		sens: in.id(a.Sensitivity), key: in.id(a.Key), session: in.id(a.Session), run: in.id(a.Run), expires: a.Expires, event: a.Event, created: a.Created,
		tagOff: uint32(ix.tags.len()), tagLen: uint32(len(a.Tags))}
	for _, t := range a.Tags {
		ix.tags.add(in.id(t))
	}
	out.metaOff, out.metaLen = uint32(ix.metas.len()), uint32(len(a.Meta))
	for _, m := range a.Meta {
		ix.metas.add(in.id(m))
	}
	return out
}

// KeySet is a set of document keys as a bitmap over key values: the
// store's keys are dense row numbers, so a membership test is one load.
type KeySet struct {
	bits []uint64
	n    int
}

// Has reports whether key is in the set.
func (s *KeySet) Has(key int64) bool {
	return key >= 0 && key>>6 < int64(len(s.bits)) && s.bits[key>>6]&(1<<(key&63)) != 0
}

// Len returns the number of keys in the set.
func (s *KeySet) Len() int { return s.n }

// Bits returns the set as a bitmap: key k is in it if bit k%64 of word
// k/64 is set (shared: a caller must not change it).
func (s *KeySet) Bits() []uint64 { return s.bits }

// Keys returns the keys in the set, ascending.
func (s *KeySet) Keys() []int64 {
	out := make([]int64, 0, s.n)
	for i, w := range s.bits {
		for w != 0 {
			out = append(out, int64(i)<<6|int64(bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return out
}

// clone copies f's lists, so a caller changing its own cannot change a
// kept copy.
func (f Filter) clone() Filter {
	f.Types, f.Kinds, f.Statuses, f.Tags = slices.Clone(f.Types), slices.Clone(f.Kinds), slices.Clone(f.Statuses), slices.Clone(f.Tags)
	f.Meta = slices.Clone(f.Meta)
	for i := range f.Meta {
		f.Meta[i] = slices.Clone(f.Meta[i])
	}
	return f
}

// selection is a Select's answer to f over one generation of the index. No
// document expires within [from, to), which holds f.Now: at any time in
// it, the answer is the same.
type selection struct {
	f        Filter
	gen      uint64
	from, to int64
	set      *KeySet
}

// answers reports whether s is Select's answer to f in generation gen.
func (s *selection) answers(f Filter, gen uint64) bool {
	if s == nil || s.gen != gen {
		return false
	}
	kept := s.f
	if f.Now != 0 && kept.Now != 0 && s.from <= f.Now && f.Now < s.to {
		kept.Now = f.Now
	}
	return reflect.DeepEqual(kept, f)
}

// Select returns the keys of the live documents passing f, so another index
// over the same keys (the vector index) can filter exactly as this one does.
// The set is shared: a caller must not change it. Asked one of the last two
// filters again with no write between (a recall's second search, the next
// recall, beside a search of the time a question names), even at a later
// time as long as no document has expired meanwhile, it answers without
// reading every document again.
func (ix *Index) Select(f Filter) *KeySet {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for i := range ix.selected {
		if last := ix.selected[i].Load(); last.answers(f, ix.gen) {
			return last.set
		}
	}
	sel := &selection{f: f.clone(), gen: ix.gen, from: math.MinInt64, to: math.MaxInt64, set: &KeySet{}}
	defer func() { ix.selected[1].Store(ix.selected[0].Swap(sel)) }()
	match, ok := ix.compile(f)
	if !ok {
		return sel.set
	}
	s := sel.set
	span, bounded := ix.spanDocs(f)
	count := len(ix.alive)
	if bounded {
		count = len(span)
	}
	for i := range count {
		n := i
		if bounded {
			n = int(span[i])
		}
		key := ix.keys[n]
		if !ix.alive[n] || key < 0 {
			continue
		}
		switch e := ix.attrs.at(n).expires; {
		case e == 0:
		case e <= f.Now:
			sel.from = max(sel.from, e)
		default:
			sel.to = min(sel.to, e)
		}
		if !match(uint32(n)) {
			continue
		}
		for key>>6 >= int64(len(s.bits)) {
			s.bits = append(s.bits, make([]uint64, len(s.bits)+1)...)
		}
		s.bits[key>>6] |= 1 << (key & 63)
		s.n++
	}
	return s
}
