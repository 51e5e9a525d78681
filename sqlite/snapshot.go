package sqlite

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mneme-ai/mneme/internal/mmap"
)

// A snapshot is a derived index written beside the database: a 64-byte
// header, then the index's own encoding (8-byte aligned, so it can be used
// in place from a memory map). Header: magic [0:9], database id [9:41],
// generation (the last change applied) [41:49], CRC-32C of the payload
// [49:53], padding, a tag [56:64] naming what else the payload depends on
// (the embedder, for vectors).
const (
	headerSize   = 64
	genAt, crcAt = 41, 49
	tagAt        = 56
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// snapshotHeader identifies a snapshot's contents.
type snapshotHeader struct {
	magic string // 9 bytes; the last one is the format version
	dbID  string // 32 bytes
	gen   int64
	tag   uint64
}

// staleTemp is how long a snapshot's temporary file goes unmodified before
// it is taken for one a killed process left behind. A writer touches its
// file at every megabyte and renames it within seconds.
const staleTemp = 10 * time.Minute

// sweepTemps removes the temporary files of snapshots (and of the marker)
// that processes killed while writing one left in home: they are never
// renamed, and would stay.
func sweepTemps(home string) {
	for _, name := range []string{IndexFile, VectorFile, MarkerFile} {
		paths, _ := filepath.Glob(filepath.Join(home, name+".*"))
		for _, p := range paths {
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleTemp {
				os.Remove(p)
			}
		}
	}
}

// writeSnapshot writes h and payload to home/name atomically: a temporary
// file renamed over the old one, so a reader sees one or the other. It
// first sweeps away temporary files a killed writer left (as Open does).
func writeSnapshot(home, name string, h snapshotHeader, payload io.WriterTo) (err error) {
	sweepTemps(home)
	tmp, err := os.CreateTemp(home, name+".*")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(home, name))
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Seek(headerSize, io.SeekStart); err != nil {
		return err
	}
	crc := crc32.New(crcTable)
	buf := bufio.NewWriterSize(io.MultiWriter(tmp, crc), 1<<20)
	if _, err := payload.WriteTo(buf); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return err
	}
	head := make([]byte, headerSize)
	copy(head, h.magic)
	copy(head[len(h.magic):genAt], h.dbID)
	binary.LittleEndian.PutUint64(head[genAt:], uint64(h.gen))
	binary.LittleEndian.PutUint32(head[crcAt:], crc.Sum32())
	binary.LittleEndian.PutUint64(head[tagAt:], h.tag)
	_, err = tmp.WriteAt(head, 0)
	return err
}

// errOtherEmbedder is a vector snapshot's of another embedder than the
// home's: expected after the home switched embedder, not damage.
var errOtherEmbedder = errors.New("built for another embedder")

// readSnapshot maps home/name and checks it against want (magic, database
// id, tag) and its checksum. It returns the payload, the generation and the
// function that unmaps it.
func readSnapshot(path string, want snapshotHeader) (payload []byte, gen int64, release func(), err error) {
	data, release, err := mmap.File(path)
	if err != nil {
		return nil, 0, nil, err
	}
	switch {
	case len(data) < headerSize || string(data[:len(want.magic)]) != want.magic:
		err = errors.New("not a mneme index of this kind and version")
	case string(data[len(want.magic):genAt]) != want.dbID:
		err = errors.New("built from another database")
	case binary.LittleEndian.Uint64(data[tagAt:]) != want.tag:
		err = errOtherEmbedder
	case crc32.Checksum(data[headerSize:], crcTable) != binary.LittleEndian.Uint32(data[crcAt:]):
		err = errors.New("checksum mismatch")
	}
	if err != nil {
		release()
		return nil, 0, nil, err
	}
	return data[headerSize:], int64(binary.LittleEndian.Uint64(data[genAt:])), release, nil
}

// snapshotGen reads a snapshot's generation without checking it (-1 when
// there is no readable header).
func snapshotGen(path string) int64 {
	gen, _ := snapshotHead(path)
	return gen
}

// snapshotHead reads a snapshot's generation and embedder tag without
// checking its payload (gen -1 when there is no readable header).
func snapshotHead(path string) (gen int64, tag uint64) {
	f, err := os.Open(path)
	if err != nil {
		return -1, 0
	}
	defer f.Close()
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return -1, 0
	}
	return int64(binary.LittleEndian.Uint64(head[genAt:])), binary.LittleEndian.Uint64(head[tagAt:])
}
