package mneme

import "reflect"

// fieldSet marks the optional fields a write named. Remembering text that
// is already stored updates the stored record: the fields the write names
// replace, the ones it leaves out are kept (a second remember with only new
// tags must not erase the title, meta or sensitivity).
type fieldSet uint32

const tracked fieldSet = 1 << 31

// optionalFields are the fields keepAbsent carries over. Project and text
// are the record's identity (the dedupe key); ids, times and links follow
// the write rules.
var optionalFields = []func(r *Record) any{
	func(r *Record) any { return &r.Type }, func(r *Record) any { return &r.Kind },
	func(r *Record) any { return &r.Status },
	func(r *Record) any { return &r.Title }, func(r *Record) any { return &r.Tags },
	func(r *Record) any { return &r.Source }, func(r *Record) any { return &r.OccurredAt },
	func(r *Record) any { return &r.ExpiresAt }, func(r *Record) any { return &r.Key },
	func(r *Record) any { return &r.Provenance }, func(r *Record) any { return &r.Sensitivity },
	func(r *Record) any { return &r.SessionID }, func(r *Record) any { return &r.RunID },
	func(r *Record) any { return &r.Speaker }, func(r *Record) any { return &r.Meta },
}

// markGiven notes r's non-empty optional fields as given, unless a request
// already did (before filling its own defaults).
func (r *Record) markGiven() {
	if r.given != 0 {
		return
	}
	r.given = tracked
	for i, field := range optionalFields {
		if !reflect.ValueOf(field(r)).Elem().IsZero() {
			r.given |= 1 << i
		}
	}
}

// keepAbsent copies from old the optional fields r's write did not name.
// A superseded record brought back keeps its status only if named.
func (r *Record) keepAbsent(old *Record) {
	if r.given == 0 {
		return
	}
	for i, field := range optionalFields {
		if r.given&(1<<i) == 0 {
			reflect.ValueOf(field(r)).Elem().Set(reflect.ValueOf(field(old)).Elem())
		}
	}
	if r.Status == Superseded {
		r.Status = Active
	}
}
