package minilm

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"

	"github.com/mneme-ai/mneme/internal/binfmt"
	"github.com/mneme-ai/mneme/internal/gemm"
	"github.com/mneme-ai/mneme/internal/mmap"
)

// The load cache: the weights converted to float32 and the vocabulary in id
// order, written beside the model on the first load and memory-mapped by the
// next ones, so a new process starts without reading and converting 45 MB.
// It is derived: it records the size and modification time of the files it
// came from, and a CRC-32C; anything that does not match is ignored and
// rewritten.
//
// Layout: a 64-byte header (magic [0:12], weights size and mtime [16:32],
// tokenizer size and mtime [32:48], CRC-32C of the rest [48:52], max word
// characters [52:56], payload length [56:64]), then the float32 tensors in
// the order of (*Model).tensors, the fp16 word embeddings, the vocabulary
// (u32 count, then u16 length + bytes per piece), then, from a 64-byte
// boundary, a u32 flag and the linear weights packed as gemm's fp16 panels
// (flag 1; layer by layer: qkv, out, ffn, prj), so that no start packs
// them again (~50-100 ms of CPU). Flag 0 (a CPU without F16C when the cache
// was written) leaves them to be packed on the first Embed.
const (
	cacheFile   = "model.fp32.cache"
	cacheMagic  = "MNEMEMINILM\x02"
	cacheHeader = 64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tensors lists the model's float32 tensors with their sizes, in cache order.
func (m *Model) tensors() ([]*[]float32, []int) {
	const hh = hidden * hidden
	ts := []*[]float32{&m.posEmb, &m.typEmb, &m.lnG, &m.lnB}
	sizes := []int{maxPos * hidden, 2 * hidden, hidden, hidden}
	for i := range m.layers {
		l := &m.layers[i]
		ts = append(ts, &l.qkvW, &l.qkvB, &l.outW, &l.outB, &l.ln1G, &l.ln1B, &l.ffnW, &l.ffnB, &l.prjW, &l.prjB, &l.ln2G, &l.ln2B)
		sizes = append(sizes, 3*hh, 3*hidden, hh, hidden, hidden, hidden, inter*hidden, inter, hidden*inter, hidden, hidden, hidden)
	}
	return ts, sizes
}

// sourceStamp is the size and modification time of the weights and tokenizer.
func sourceStamp(dir string) ([32]byte, error) {
	var stamp [32]byte
	for i, name := range []string{weightsFile, tokenizerFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			return stamp, err
		}
		binary.LittleEndian.PutUint64(stamp[16*i:], uint64(st.Size()))
		binary.LittleEndian.PutUint64(stamp[16*i+8:], uint64(st.ModTime().UnixNano()))
	}
	return stamp, nil
}

// loadCache maps the cache; any mismatch is an error and the caller loads
// the model files instead.
func loadCache(dir string) (*Model, error) {
	stamp, err := sourceStamp(dir)
	if err != nil || !binfmt.LittleEndian {
		return nil, errors.New("no usable cache")
	}
	data, release, err := mmap.File(filepath.Join(dir, cacheFile))
	if err != nil {
		return nil, err
	}
	m, err := decodeCache(data, stamp)
	if err != nil {
		release()
		return nil, err
	}
	runtime.AddCleanup(m, func(release func()) { release() }, release)
	return m, nil
}

func decodeCache(data []byte, stamp [32]byte) (*Model, error) {
	bad := errors.New("minilm: stale or corrupt load cache")
	if len(data) < cacheHeader || string(data[:len(cacheMagic)]) != cacheMagic || [32]byte(data[16:48]) != stamp ||
		binary.LittleEndian.Uint64(data[56:]) != uint64(len(data)-cacheHeader) ||
		crc32.Checksum(data[cacheHeader:], castagnoli) != binary.LittleEndian.Uint32(data[48:]) {
		return nil, bad
	}
	m := &Model{}
	ts, sizes := m.tensors()
	off := cacheHeader
	for i, t := range ts {
		n := sizes[i] * 4
		if off+n > len(data) {
			return nil, bad
		}
		*t = unsafe.Slice((*float32)(unsafe.Pointer(&data[off])), sizes[i])
		off += n
	}
	n := vocabSize * hidden * 2
	if off+n+4 > len(data) {
		return nil, bad
	}
	m.wordEmb = data[off : off+n : off+n]
	off += n
	vocab := make([]string, binary.LittleEndian.Uint32(data[off:]))
	off += 4
	for i := range vocab {
		if off+2 > len(data) {
			return nil, bad
		}
		l := int(binary.LittleEndian.Uint16(data[off:]))
		if off+2+l > len(data) {
			return nil, bad
		}
		vocab[i] = string(data[off+2 : off+2+l])
		off += 2 + l
	}
	if len(vocab) != vocabSize {
		return nil, bad
	}
	if off, err := decodePanels(m, data, off); err != nil || off != len(data) {
		return nil, bad
	}
	tok, err := newTokenizer(vocab, int(binary.LittleEndian.Uint32(data[52:])), cacheFile)
	m.tok = tok
	return m, err
}

// writeCache writes the cache for m, atomically. It is best effort: a
// read-only model directory only costs the slower load next time.
func writeCache(dir string, m *Model) error {
	stamp, err := sourceStamp(dir)
	if err != nil || !binfmt.LittleEndian {
		return err
	}
	buf := encodeCache(m, stamp)
	tmp, err := os.CreateTemp(dir, cacheFile+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(buf)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, cacheFile))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// encodeCache is the load-cache form of m (see the layout above), stamped
// with what it was made from.
func encodeCache(m *Model, stamp [32]byte) []byte {
	buf := make([]byte, cacheHeader)
	ts, _ := m.tensors()
	for _, t := range ts {
		buf = append(buf, binfmt.Bytes(*t)...)
	}
	buf = append(buf, m.wordEmb...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(m.tok.vocab)))
	for _, p := range m.tok.vocab {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(len(p)))
		buf = append(buf, p...)
	}
	buf = encodePanels(m, buf)
	copy(buf, cacheMagic)
	copy(buf[16:48], stamp[:])
	binary.LittleEndian.PutUint32(buf[48:], crc32.Checksum(buf[cacheHeader:], castagnoli))
	binary.LittleEndian.PutUint32(buf[52:], uint32(m.tok.maxChars))
	binary.LittleEndian.PutUint64(buf[56:], uint64(len(buf)-cacheHeader))
	return buf
}

// panelShapes are the packed products of a layer, in cache order, with
// their float32 weights.
func (l *layer) panelShapes() [4]struct {
	w    []float32
	n, k int
} {
	return [4]struct {
		w    []float32
		n, k int
	}{{l.qkvW, 3 * hidden, hidden}, {l.outW, hidden, hidden}, {l.ffnW, inter, hidden}, {l.prjW, hidden, inter}}
}

// encodePanels appends the panel section: padding to 64 bytes, the flag,
// then every layer's fp16 panels when all of them are fp16.
func encodePanels(m *Model, buf []byte) []byte {
	for (len(buf)-cacheHeader)%64 != 0 {
		buf = append(buf, 0)
	}
	m.pack()
	for i := range m.layers {
		if p := m.layers[i].p; p == nil || p.qkv.Half == nil || p.out.Half == nil || p.ffn.Half == nil || p.prj.Half == nil {
			return binary.LittleEndian.AppendUint32(buf, 0)
		}
	}
	buf = binary.LittleEndian.AppendUint32(buf, 1)
	for (len(buf)-cacheHeader)%64 != 0 {
		buf = append(buf, 0)
	}
	for i := range m.layers {
		p := m.layers[i].p
		for _, ps := range []*gemm.Panels{p.qkv, p.out, p.ffn, p.prj} {
			buf = append(buf, binfmt.Bytes(ps.Half)...)
		}
	}
	return buf
}

// decodePanels reads the panel section at off (see encodePanels) into m's
// layers, in place, and returns the offset after it. Panels this CPU cannot
// use are skipped: the first Embed packs its own.
func decodePanels(m *Model, data []byte, off int) (int, error) {
	bad := errors.New("minilm: bad panel section")
	for (off-cacheHeader)%64 != 0 {
		off++
	}
	if off+4 > len(data) {
		return 0, bad
	}
	flag := binary.LittleEndian.Uint32(data[off:])
	off += 4
	if flag == 0 {
		return off, nil
	}
	for (off-cacheHeader)%64 != 0 {
		off++
	}
	for i := range m.layers {
		l := &m.layers[i]
		var ps [4]*gemm.Panels
		for j, s := range l.panelShapes() {
			n := gemm.PanelsLen(s.n, s.k)
			if off+2*n > len(data) {
				return 0, bad
			}
			ps[j] = gemm.HalfPanels(unsafe.Slice((*uint16)(unsafe.Pointer(&data[off])), n), s.w, s.n, s.k)
			off += 2 * n
		}
		if ps[0] != nil && ps[1] != nil && ps[2] != nil && ps[3] != nil {
			l.p = &packedW{qkv: ps[0], out: ps[1], ffn: ps[2], prj: ps[3]}
		}
	}
	return off, nil
}
