package minilm

import "golang.org/x/sys/cpu"

// useGELUAVX2 selects the vector GELU; a variable so tests can compare the
// two paths. cpu.X86.HasAVX also means the OS saves YMM state.
var useGELUAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// geluAVX2 is in gelu_amd64.s.
//
//go:noescape
func geluAVX2(row, bias *float32, n int)
