package minilm

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLoadCache: the first load writes the cache, the next one maps it and
// embeds identically; a corrupt or stale cache is ignored and rewritten.
func TestLoadCache(t *testing.T) {
	src, dir := modelDir(t), t.TempDir()
	for _, f := range []string{weightsFile, tokenizerFile, configFile} {
		if err := os.Symlink(filepath.Join(src, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	texts := []string{"The quick brown fox", "Café déjà vu, naïve résumé!", "深度学习 and [UNK] tokens"}
	slow, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := slow.Embed(texts)
	cachePath := filepath.Join(dir, cacheFile)
	if _, err := os.Stat(cachePath); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	check := func(label string) {
		t.Helper()
		m, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Embed(texts); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: embeddings differ from the files' model", label)
		}
		if !reflect.DeepEqual(m.Tokenize(texts[1]), slow.Tokenize(texts[1])) {
			t.Fatalf("%s: tokenizer differs", label)
		}
	}
	cached, err := loadCache(dir)
	if err != nil {
		t.Fatalf("cache not usable: %v", err)
	}
	// The packed weights come mapped from the cache: the first Embed has
	// nothing to pack (on a CPU that widens fp16; else it packs its own).
	if want := slow.layers[0].p.qkv.Half != nil; (cached.layers[nLayers-1].p != nil) != want {
		t.Fatalf("panels mapped from the cache: %v, want %v", cached.layers[nLayers-1].p != nil, want)
	}
	check("from the cache")

	data, _ := os.ReadFile(cachePath)
	data[len(data)/2] ^= 0x55
	os.WriteFile(cachePath, data, 0o644)
	if _, err := loadCache(dir); err == nil {
		t.Fatal("a corrupt cache was accepted")
	}
	check("after corruption")
	if _, err := loadCache(dir); err != nil {
		t.Fatalf("the corrupt cache was not rewritten: %v", err)
	}
	if _, err := decodeCache(data[:100], [32]byte{}); err == nil {
		t.Fatal("a truncated cache was accepted")
	}
}
