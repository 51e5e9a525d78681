package hnsw

import "golang.org/x/sys/cpu"

// hasAVX2: the kernels use AVX2-era YMM loads and FMA3; cpu.X86 also reports
// whether the OS saves YMM state.
var hasAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func dotAVX(a, b *float32, n int) float32

//go:noescape
func dot4AVX(q, a, b, c, d *float32, n int, out *[4]float32)
