package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/hash"
)

// TestChunk: multi-row statements come in powers of two up to 128, the
// largest that fits what is left.
func TestChunk(t *testing.T) {
	for _, c := range []struct{ n, want int }{{1, 1}, {2, 2}, {3, 2}, {100, 64}, {127, 64}, {128, 128}, {1000, 128}} {
		if got := chunk(c.n); got != c.want {
			t.Errorf("chunk(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestBatchOfManyChunks: a batch larger than one statement's rows is
// written whole, each record with its tags, meta rows and vector (and the
// vector cached by its text).
func TestBatchOfManyChunks(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	em, _ := hash.New(16)
	eng := mneme.NewEngine(s, mneme.WithEmbedder(em))
	defer eng.Close()
	const n = 301 // 128 + 128 + 32 + 8 + 4 + 1
	recs := make([]*mneme.Record, n)
	for i := range recs {
		recs[i] = &mneme.Record{Text: fmt.Sprintf("record number %d", i), Tags: []string{"bulk", fmt.Sprint("t", i%3)}, Meta: []byte(fmt.Sprintf(`{"i":%d,"odd":%t}`, i, i%2 == 1))}
	}
	res, err := eng.Remember(ctx, recs, mneme.WriteOptions{})
	if err != nil || res.Inserted != n {
		t.Fatalf("remember %d records = %+v, %v", n, res, err)
	}
	var records, tags, metas, seqs, vectors, cached int
	if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM records), (SELECT count(*) FROM record_tags),
		(SELECT count(*) FROM record_meta), (SELECT count(DISTINCT seq) FROM record_meta),
		(SELECT count(*) FROM vectors v JOIN records r ON r.seq = v.seq), (SELECT count(*) FROM embedding_cache)`).Scan(&records, &tags, &metas, &seqs, &vectors, &cached); err != nil {
		t.Fatal(err)
	}
	if records != n || tags != 2*n || metas != 2*n || seqs != n || vectors != n || cached != n {
		t.Fatalf("%d records, %d tag rows, %d meta rows over %d records, %d vectors, %d cached; want %d, %d, %d over %d, %d, %d",
			records, tags, metas, seqs, vectors, cached, n, 2*n, 2*n, n, n, n)
	}
	for _, i := range []int{0, 127, 128, 255, 256, 300} {
		got, _, err := eng.List(ctx, mneme.Filter{Meta: []mneme.MetaMatch{{Key: "i", Value: fmt.Sprint(i)}}, Tags: []string{fmt.Sprint("t", i%3)}}, 10, "")
		if err != nil || len(got) != 1 || got[0].ID != recs[i].ID {
			t.Fatalf("record %d by its meta and tag: %d found (%v)", i, len(got), err)
		}
	}
}

// TestStmtsSharedAfter: a statement is prepared for the whole store only
// after sharedAfter transactions prepared it themselves, and then stays.
func TestStmtsSharedAfter(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var st stmts
	defer st.close()
	for i := range sharedAfter + 2 {
		got, err := st.again(ctx, s.db, "SELECT 1")
		if err != nil || (got != nil) != (i >= sharedAfter) {
			t.Fatalf("use %d: statement %v (%v), want one from use %d on", i+1, got, err, sharedAfter+1)
		}
	}
}

// TestBatchFailsWhole: a batch whose pending inserts fail (here the
// seventh record's vector has the wrong dimension) writes nothing, and
// the error is that record's: when the inserts wait for the end, and when
// each keyed record's supersession sends them in first.
func TestBatchFailsWhole(t *testing.T) {
	for _, keyed := range []bool{false, true} {
		t.Run(fmt.Sprint("keyed=", keyed), func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.SetHomeEmbedder(ctx, mneme.EmbedderInfo{Provider: "hash", Model: "test", Version: "1", Dim: 4}); err != nil {
				t.Fatal(err)
			}
			var recs []*mneme.Record
			for i := range 10 {
				r := &mneme.Record{Text: fmt.Sprint("record ", i), Meta: []byte(`{"i":1}`), Vector: []float32{1, 0, 0, 0}}
				if keyed {
					r.Key = fmt.Sprint("k", i%2)
				}
				if i == 6 {
					r.Vector = r.Vector[:3]
				}
				if err := mneme.Prepare(r); err != nil {
					t.Fatal(err)
				}
				recs = append(recs, r)
			}
			_, err = s.Put(ctx, recs, mneme.ModeRemember, time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
			if !strings.Contains(mneme.ErrorMessage(err), "vector of dimension 3") {
				t.Fatalf("err = %v, want the seventh record's vector refused", err)
			}
			var n int
			if err := s.db.QueryRow("SELECT (SELECT count(*) FROM records) + (SELECT count(*) FROM record_meta) + (SELECT count(*) FROM vectors)").Scan(&n); err != nil || n != 0 {
				t.Fatalf("a failed batch left %d rows (%v)", n, err)
			}
		})
	}
}
