package minilm

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync"
)

// f16ToF32 converts one IEEE 754 binary16 value to float32 exactly
// (every half value is representable as a float32).
func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch exp {
	case 0x1f: // inf, or NaN with its payload kept
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case 0:
		if mant == 0 {
			return math.Float32frombits(sign) // ±0
		}
		// Subnormal half (mant·2⁻²⁴) is a normal float32: shift the
		// leading one into the implicit bit position.
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	default:
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	}
}

// convertF16 decodes little-endian halves from src into dst
// (len(src) == 2·len(dst)), split across the cores because Load converts
// ~11M values and must stay fast.
func convertF16(dst []float32, src []byte) {
	const minChunk = 1 << 16
	workers := runtime.GOMAXPROCS(0)
	if workers > len(dst)/minChunk {
		workers = len(dst) / minChunk
	}
	if workers <= 1 {
		convertF16Range(dst, src)
		return
	}
	var wg sync.WaitGroup
	step := (len(dst) + workers - 1) / workers
	for lo := 0; lo < len(dst); lo += step {
		hi := min(lo+step, len(dst))
		wg.Add(1)
		go func() {
			defer wg.Done()
			convertF16Range(dst[lo:hi], src[2*lo:2*hi])
		}()
	}
	wg.Wait()
}

func convertF16Range(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = f16ToF32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}
