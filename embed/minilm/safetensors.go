package minilm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// stFile reads tensors from a safetensors file: an 8-byte little-endian
// header length, a JSON header mapping names to dtype/shape/byte range,
// then the raw data. Tensors are read one at a time with ReadAt so the
// whole 45 MB file is never held in memory next to its float32 copy.
type stFile struct {
	name    string // base name, used in errors
	f       io.ReaderAt
	close   func() error
	mem     []byte // the whole file when it is in memory (embedded): tensors alias it
	base    int64  // file offset of the data section
	tensors map[string]stTensor
	scratch []byte
}

type stTensor struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

func openSafetensors(path, name string) (*stFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("minilm: %s: %w", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("minilm: %s: %w", name, err)
	}
	st, err := readHeader(f, fi.Size(), name)
	if err != nil {
		f.Close()
		return nil, err
	}
	st.close = f.Close
	return st, nil
}

// memSafetensors reads tensors from a file already in memory (the
// embedded model): F16 tensors kept as such alias data, nothing is copied.
func memSafetensors(data []byte, name string) (*stFile, error) {
	st, err := readHeader(bytes.NewReader(data), int64(len(data)), name)
	if err != nil {
		return nil, err
	}
	st.mem = data
	return st, nil
}

func readHeader(f io.ReaderAt, size int64, name string) (*stFile, error) {
	var lenBuf [8]byte
	if _, err := f.ReadAt(lenBuf[:], 0); err != nil {
		return nil, fmt.Errorf("minilm: %s: reading header length: %w", name, err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n == 0 || n > 1<<24 || int64(n)+8 > size {
		return nil, fmt.Errorf("minilm: %s: corrupt header length %d", name, n)
	}
	hdr := make([]byte, n)
	if _, err := f.ReadAt(hdr, 8); err != nil {
		return nil, fmt.Errorf("minilm: %s: reading header: %w", name, err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("minilm: %s: corrupt header: %w", name, err)
	}
	st := &stFile{name: name, f: f, base: 8 + int64(n), tensors: make(map[string]stTensor, len(raw))}
	dataLen := size - st.base
	for k, v := range raw {
		if k == "__metadata__" {
			continue
		}
		var t stTensor
		if err := json.Unmarshal(v, &t); err != nil {
			return nil, fmt.Errorf("minilm: %s: tensor %s: %w", name, k, err)
		}
		if t.Offsets[0] < 0 || t.Offsets[0] > t.Offsets[1] || t.Offsets[1] > dataLen {
			return nil, fmt.Errorf("minilm: %s: tensor %s: byte range %v outside the file (truncated?)", name, k, t.Offsets)
		}
		st.tensors[k] = t
	}
	return st, nil
}

func (s *stFile) Close() error {
	if s.close == nil {
		return nil
	}
	return s.close()
}

// raw returns the bytes of an F16 tensor after checking its shape. The
// slice is freshly allocated when keep is set, else it aliases scratch.
func (s *stFile) raw(name string, keep bool, shape ...int) ([]byte, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("minilm: %s: missing tensor %s", s.name, name)
	}
	if t.DType != "F16" || !slices.Equal(t.Shape, shape) {
		return nil, fmt.Errorf("minilm: %s: tensor %s is %s%v, want F16%v", s.name, name, t.DType, t.Shape, shape)
	}
	n := 2
	for _, d := range shape {
		n *= d
	}
	if t.Offsets[1]-t.Offsets[0] != int64(n) {
		return nil, fmt.Errorf("minilm: %s: tensor %s has %d bytes, want %d", s.name, name, t.Offsets[1]-t.Offsets[0], n)
	}
	if s.mem != nil {
		off := s.base + t.Offsets[0]
		return s.mem[off : off+int64(n) : off+int64(n)], nil
	}
	var buf []byte
	if keep {
		buf = make([]byte, n)
	} else {
		if cap(s.scratch) < n {
			s.scratch = make([]byte, n)
		}
		buf = s.scratch[:n]
	}
	if _, err := s.f.ReadAt(buf, s.base+t.Offsets[0]); err != nil {
		return nil, fmt.Errorf("minilm: %s: reading tensor %s: %w", s.name, name, err)
	}
	return buf, nil
}

// f32Into converts an F16 tensor into dst, whose length fixes the size;
// shape is checked against the header.
func (s *stFile) f32Into(dst []float32, name string, shape ...int) error {
	b, err := s.raw(name, false, shape...)
	if err != nil {
		return err
	}
	convertF16(dst, b)
	return nil
}

// f32 is f32Into with a freshly allocated destination.
func (s *stFile) f32(name string, shape ...int) ([]float32, error) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	dst := make([]float32, n)
	return dst, s.f32Into(dst, name, shape...)
}
