package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// absPath is an absolute path of two or more elements in output.
var absPath = regexp.MustCompile(`(^|[\s'"(=:\[])/[A-Za-z0-9._-]+/`)

// TestDoctorLanes: each lane is ready, degraded or unavailable with the
// checks it rests on; a degraded lane exits 0, an unavailable required
// lane 1; no output holds an absolute path (the data directory is <home>,
// the model directory under $HOME is ~/…).
func TestDoctorLanes(t *testing.T) {
	user := t.TempDir()
	home := filepath.Join(user, "data", "mneme")
	env := []string{"HOME=" + user, "MNEME_MODEL_DIR=" + filepath.Join(user, ".cache", "models")}
	run := func(args ...string) (doctorJSON, result) {
		t.Helper()
		r := mnemeEnv(t, home, "", env, append([]string{"doctor", "--json"}, args...)...)
		text := mnemeEnv(t, home, "", env, append([]string{"doctor"}, args...)...)
		for _, out := range []string{r.stdout, r.stderr, text.stdout, text.stderr} {
			if m := absPath.FindString(out); m != "" || strings.Contains(out, user) {
				t.Fatalf("doctor %v shows an absolute path (%q):\n%s", args, m, out)
			}
		}
		if text.code != r.code {
			t.Fatalf("doctor %v: exit %d, with --json %d", args, text.code, r.code)
		}
		return decode[doctorJSON](t, r.stdout), r
	}
	if r := mnemeEnv(t, home, "", env, "remember", "lanes are ready", "--embedder", "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	d, r := run("--embedder", "hash")
	if r.code != 0 || !d.OK || d.Schema != "mneme.doctor/v1" {
		t.Fatalf("healthy home: exit %d, %+v", r.code, d)
	}
	for id, want := range map[string]string{"recall-lexical": "ready", "recall-hybrid": "ready", "context": "ready", "code": "ready",
		"summarize-abstractive": "unavailable", "shared-store": "unavailable", "model": "unavailable"} {
		if l := d.lane(id); l.Status != want || len(l.RequiredCheckIDs) == 0 {
			t.Errorf("lane %s = %+v, want %s", id, l, want)
		}
	}
	if l := d.lane("model"); l.Required || strings.Join(l.DegradedCheckIDs, ",") != "model" {
		t.Errorf("model lane without the model, embedder hash: %+v", l)
	}
	if _, _, fix := d.check("model"); fix != "mneme model fetch" {
		t.Errorf("model check fix = %q", fix)
	}
	// Degraded: memories wait for a vector. Exit 0.
	if r := mnemeEnv(t, home, "", env, "remember", "this one waits", "--embedder", "none"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	d, r = run("--embedder", "hash")
	if r.code != 0 || !d.OK || !degraded(d, "recall-hybrid", "vectors") || !degraded(d, "context", "vectors") || d.lane("recall-lexical").Status != "ready" {
		t.Fatalf("pending vectors: exit %d, %+v", r.code, d.Lanes)
	}
	// Unavailable and required: the configured embedder does not answer.
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"ollama","url":"http://127.0.0.1:1","model":"m","dim":8}}`), 0o600)
	d, r = run()
	if l := d.lane("recall-hybrid"); r.code != 1 || d.OK || l.Status != "unavailable" || !l.Required || !strings.Contains(strings.Join(l.DegradedCheckIDs, ","), "embedder") {
		t.Fatalf("embedder down: exit %d, %+v", r.code, l)
	}
	if !strings.Contains(r.stderr, "recall-hybrid") {
		t.Fatalf("the error does not name the lane: %s", r.stderr)
	}
	// The built-in model required and missing: the model lane fails.
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"embedder":{"provider":"minilm"}}`), 0o600)
	d, r = run()
	if l := d.lane("model"); r.code != 1 || l.Status != "unavailable" || !l.Required {
		t.Fatalf("minilm without its model: exit %d, %+v", r.code, l)
	}
	if _, detail, _ := d.check("model"); !strings.Contains(detail, "~/.cache/models") {
		t.Fatalf("model directory shown as %q", detail)
	}
}
