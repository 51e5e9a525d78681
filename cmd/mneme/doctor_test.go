package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type doctorJSON struct {
	OK     bool
	Checks []struct {
		Name, Detail, Fix string
		OK                bool
	}
}

func (d doctorJSON) check(name string) (ok bool, detail, fix string) {
	for _, c := range d.Checks {
		if c.Name == name {
			return c.OK, c.Detail, c.Fix
		}
	}
	return false, "missing check " + name, ""
}

func TestDoctor(t *testing.T) {
	home := t.TempDir()
	ok(t, home, "remember", "a memory without a vector", "--embedder", "none")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "none", "--json")); !d.OK {
		t.Fatalf("healthy home: %+v", d)
	}
	r := mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d := decode[doctorJSON](t, r.stdout)
	if fine, _, fix := d.check("vectors"); r.code != 1 || fine || fix != "mneme reindex" {
		t.Fatalf("unembedded home: exit %d, %+v", r.code, d)
	}
	ok(t, home, "reindex", "--embedder", "hash")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "hash", "--json")); !d.OK {
		t.Fatalf("after reindex: %+v", d)
	}
	os.WriteFile(filepath.Join(home, "lexical.idx"), []byte("garbage"), 0o600)
	r = mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d = decode[doctorJSON](t, r.stdout)
	if fine, detail, _ := d.check("lexical index"); r.code != 1 || fine || !strings.Contains(detail, "rebuilt on the next recall") {
		t.Fatalf("corrupt snapshot: exit %d, %+v", r.code, d)
	}
	os.WriteFile(filepath.Join(home, "vectors.idx"), []byte("garbage"), 0o600)
	r = mneme(t, home, "", "doctor", "--embedder", "hash", "--json")
	d = decode[doctorJSON](t, r.stdout)
	if fine, detail, _ := d.check("vector index"); r.code != 1 || fine || !strings.Contains(detail, "rebuilt on the next recall") {
		t.Fatalf("corrupt vector snapshot: exit %d, %+v", r.code, d)
	}
	ok(t, home, "recall", "memory", "--embedder", "hash")
	if d := decode[doctorJSON](t, ok(t, home, "doctor", "--embedder", "hash", "--json")); !d.OK {
		t.Fatalf("after recall rebuilt the indexes: %+v", d)
	}
}
