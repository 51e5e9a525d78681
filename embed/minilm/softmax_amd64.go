package minilm

import "golang.org/x/sys/cpu"

// useSoftmaxAVX2 selects the vector softmax; a variable so tests can run
// the portable path too.
var useSoftmaxAVX2 = cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasFMA

// softmaxExpAVX2 is in softmax_amd64.s.
//
//go:noescape
func softmaxExpAVX2(row *float32, n int, mask *int32, scale float32) (sum float32)
