// Command genembed writes embed/minilm/embedded/model.bin, the model the
// embedmodel build compiles in, from a model directory whose files match
// the pinned SHA-256s (minilm.FileSHA256). Run by `go generate
// ./embed/minilm`; -dir defaults to where `mneme model fetch` puts the model.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mneme-ai/mneme/embed/minilm"
)

func main() {
	dir := flag.String("dir", minilm.DefaultDir(os.Getenv), "the model directory")
	out := flag.String("o", filepath.Join("embedded", "model.bin"), "the file to write")
	flag.Parse()
	blob, err := minilm.EmbedForm(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, blob) {
		return // already current
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, blob, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
	if err := os.Rename(tmp, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genembed:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genembed: wrote %s (%d bytes) from %s\n", *out, len(blob), *dir)
}
