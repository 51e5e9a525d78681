package storetest

import (
	"encoding/json"
	"testing"

	"github.com/mneme-ai/mneme"
)

// testBatchDedupe: a batch of many records dedupes each against the
// stored records and against the batch's own earlier records, as one
// record at a time would (a store may look the batch's texts up at once);
// a record written twice in a batch keeps the later meta, and only it.
func testBatchDedupe(t *testing.T, f *fixture) {
	f.remember(mneme.Record{Text: "stored before the batch"})
	meta := func(s string) json.RawMessage { return json.RawMessage(s) }
	cases := []struct {
		name             string
		batch            []mneme.Record
		ins, upd, skip   int
		metaKey, metaVal string // a meta filter that selects exactly the batch's first record
	}{
		{"a stored text", []mneme.Record{{Text: "stored before the batch"}, {Text: "new in the first batch"}}, 1, 0, 1, "", ""},
		{"a text twice", []mneme.Record{{Text: "twice in a batch", Meta: meta(`{"n":1}`)}, {Text: "twice in a batch", Meta: meta(`{"n":1}`)}}, 1, 0, 1, "n", "1"},
		{"a text twice, changed", []mneme.Record{{Text: "twice, then changed", Meta: meta(`{"v":"one"}`)}, {Text: "twice, then changed", Meta: meta(`{"v":"two"}`)}}, 1, 1, 0, "v", "two"},
		{"a stored text, changed", []mneme.Record{{Text: "stored before the batch", Meta: meta(`{"w":"later"}`)}, {Text: "another new one"}}, 1, 1, 0, "w", "later"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs := make([]*mneme.Record, len(c.batch))
			for i := range c.batch {
				recs[i] = &c.batch[i]
			}
			res, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			wantCounts(t, res, c.ins, c.upd, c.skip)
			byText, _, err := f.eng.List(f.ctx, f.filter(mneme.Filter{ContentHash: recs[0].ContentHash}), 10, "")
			if err != nil || len(byText) != 1 || byText[0].ID != recs[0].ID {
				t.Fatalf("records with the first text: %d (%v), want the one with id %s", len(byText), err, recs[0].ID)
			}
			if c.metaKey == "" {
				return
			}
			listed, _, err := f.eng.List(f.ctx, f.filter(mneme.Filter{Meta: []mneme.MetaMatch{{Key: c.metaKey, Value: c.metaVal}}}), 10, "")
			if err != nil {
				t.Fatal(err)
			}
			sameIDs(t, "meta "+c.metaKey+"="+c.metaVal, listed, []string{recs[0].ID})
		})
	}
	// The meta a second write replaced is gone from the filters.
	listed, _, err := f.eng.List(f.ctx, f.filter(mneme.Filter{Meta: []mneme.MetaMatch{{Key: "v", Value: "one"}}}), 10, "")
	if err != nil || len(listed) != 0 {
		t.Fatalf("meta v=one selects %d records (%v), want none: the batch's second write replaced it", len(listed), err)
	}
}

// testBatchInOrder: a batch's records are written as if one at a time, in
// order: a later record with an earlier one's key supersedes it, and each
// keeps its own tags.
func testBatchInOrder(t *testing.T, f *fixture) {
	recs := []*mneme.Record{
		{Text: "the deploy target is eu-west", Key: "deploy-target", Tags: []string{"infra"}},
		{Text: "an unrelated note", Tags: []string{"misc", "infra"}},
		{Text: "the deploy target is us-east", Key: "deploy-target", Tags: []string{"infra", "moved"}},
	}
	res, err := f.eng.Remember(f.ctx, recs, mneme.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Inserted != 3 || res.Superseded != 1 {
		t.Fatalf("write result = %+v, want 3 inserted, 1 superseded", res)
	}
	if first, last := f.get(recs[0].ID), f.get(recs[2].ID); first.Status != mneme.Superseded || last.Status != mneme.Active {
		t.Fatalf("statuses %s then %s, want superseded then active", first.Status, last.Status)
	}
	for _, c := range []struct {
		tag  string
		want []string
	}{{"infra", []string{recs[2].ID, recs[1].ID}}, {"misc", []string{recs[1].ID}}, {"moved", []string{recs[2].ID}}} {
		listed, _, err := f.eng.List(f.ctx, f.filter(mneme.Filter{Tags: []string{c.tag}}), 10, "")
		if err != nil {
			t.Fatal(err)
		}
		sameIDs(t, "tag "+c.tag, listed, c.want)
	}
}
