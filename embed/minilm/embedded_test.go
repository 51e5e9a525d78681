package minilm

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmbedForm: the embedded form is made only from the pinned files, and
// it loads to the same model as the files do.
func TestEmbedForm(t *testing.T) {
	dir := modelDir(t)
	blob, err := EmbedForm(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := decodeCache(blob, embeddedStamp())
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"We deploy on Tuesdays after the CAB review", "naïve café ☕"}
	want, got := testModel(t).Embed(texts), m.Embed(texts)
	for i := range want {
		for j := range want[i] {
			if want[i][j] != got[i][j] {
				t.Fatalf("text %d dim %d: embedded form %v, files %v", i, j, got[i][j], want[i][j])
			}
		}
	}
	if Embedded() {
		if !bytes.Equal([]byte(embeddedBlob), blob) {
			t.Error("the model compiled in is not the form of the pinned files: run go generate ./embed/minilm and build again")
		}
	}

	// Any other file is refused, naming it.
	other := t.TempDir()
	for _, name := range []string{configFile, tokenizerFile, weightsFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == tokenizerFile {
			b = bytes.Replace(b, []byte(`"[UNK]"`), []byte(`"[UNX]"`), 1)
		}
		os.WriteFile(filepath.Join(other, name), b, 0o644)
	}
	if _, err := EmbedForm(other); err == nil || !strings.Contains(err.Error(), tokenizerFile+" in "+other+" has SHA-256") {
		t.Errorf("a changed tokenizer.json: %v", err)
	}
	if _, err := EmbedForm(t.TempDir()); err == nil || !strings.Contains(err.Error(), "mneme model fetch") {
		t.Errorf("no model: %v", err)
	}
}

// TestLoadEmbedded: a build without the tag says so; one with it loads.
func TestLoadEmbedded(t *testing.T) {
	m, err := LoadEmbedded()
	if !Embedded() {
		if err == nil || !strings.Contains(err.Error(), "embedmodel") {
			t.Fatalf("no model compiled in: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if v := m.Embed([]string{"hello"}); len(v[0]) != hidden {
		t.Fatalf("embedded model gives %d dims", len(v[0]))
	}
}
