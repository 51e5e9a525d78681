package vault

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

func stampRecord() *mneme.Record {
	at := time.Date(2026, 5, 1, 9, 30, 0, 0, time.UTC)
	return &mneme.Record{ID: "019e830e-1a00-724b-94a5-a9bb1d130382", Project: "p", Type: mneme.Semantic, Kind: "decision",
		Title: "Store choice", Text: "Postgres in production.", Tags: []string{"db"}, Source: &mneme.Source{URI: "docs/adr.md", LineStart: 3, LineEnd: 9, Parent: "d", Chunk: 1},
		OccurredAt: &at, CreatedAt: at, UpdatedAt: at, ExpiresAt: &at, Key: "k", Status: mneme.Active, Provenance: mneme.Verified,
		Sensitivity: mneme.Internal, SessionID: "s", RunID: "r", Speaker: "ana", ContentHash: "h",
		Links: []mneme.Link{{Type: mneme.LinkRelatesTo, Target: "019e830e-1a00-7249-9fff-df3c1d4fa4ea"},
			{Type: mneme.LinkDerivedFrom, Target: "019e830e-1a00-7249-9fff-df3c1d4fa4eb"}},
		Meta:       json.RawMessage(`{"ticket":"ENG-1","aliases":["ADR"]}`),
		Promotions: []mneme.Promotion{{At: at, By: "me", ToType: mneme.Semantic, ToStatus: mneme.Validated}}}
}

// variants are copies of v each with one leaf (a field, a field of a
// struct it points to, an element of a list) changed.
func variants(t *testing.T, v reflect.Value, path string, emit func(string)) {
	switch v.Kind() {
	case reflect.String:
		old := v.String()
		v.SetString(old + "x")
		emit(path)
		v.SetString(old)
	case reflect.Int, reflect.Int64:
		old := v.Int()
		v.SetInt(old + 7)
		emit(path)
		v.SetInt(old)
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		old := v.Pointer()
		variants(t, v.Elem(), path, emit)
		saved := v.Interface()
		v.Set(reflect.Zero(v.Type()))
		emit(path + "=nil")
		v.Set(reflect.ValueOf(saved))
		_ = old
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage
			old := v.Bytes()
			v.SetBytes([]byte(`{"ticket":"ENG-2","aliases":["ADR"]}`))
			emit(path)
			v.SetBytes(old)
			return
		}
		for i := range v.Len() {
			variants(t, v.Index(i), path+"[i]", emit)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			old := v.Interface().(time.Time)
			v.Set(reflect.ValueOf(old.Add(time.Nanosecond)))
			emit(path)
			v.Set(reflect.ValueOf(old))
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				variants(t, v.Field(i), path+"."+f.Name, emit)
			}
		}
	default:
		t.Fatalf("%s: teach variants this kind (%s)", path, v.Kind())
	}
}

// TestStampCoversRender: whatever changes a record's file changes its
// stamp, for every field of mneme.Record (a field added later is covered
// by this test, which fails until stampOf reads it), and for the file
// names its links show.
func TestStampCoversRender(t *testing.T) {
	r := stampRecord()
	name := func(id string) string { return "note-" + id[len(id)-4:] }
	base, _ := stampOf(r, name, nil)
	baseFile := string(render(r, name))
	changed := 0
	variants(t, reflect.ValueOf(r).Elem(), "Record", func(path string) {
		s, _ := stampOf(r, name, nil)
		if file := string(render(r, name)); file != baseFile {
			changed++
			if s == base {
				t.Errorf("changing %s changes the file but not its stamp", path)
			}
		}
	})
	if changed < 20 {
		t.Fatalf("only %d changes reached the file: the test no longer exercises render", changed)
	}
	if s, _ := stampOf(r, func(id string) string { return "moved-" + id[len(id)-4:] }, nil); s == base {
		t.Error("a linked file's new name does not change the stamp")
	}
}

// TestRenderVersion pins render's output: if this fails, render writes
// notes differently, so change renderVersion (files of older exports must
// be rendered again) and then the sum below.
func TestRenderVersion(t *testing.T) {
	got := sum(render(stampRecord(), func(string) string { return "store-choice-1d4fa4ea" }))
	const want, version = "327635fbc04b524864e4bfef32281c62d69144573b33f1e5b715c7f87e6344b5", "vault-render/1"
	if renderVersion != version || got != want {
		t.Fatalf("render's output sum is %s and renderVersion %s: were %s and %s", got, renderVersion, want, version)
	}
}
