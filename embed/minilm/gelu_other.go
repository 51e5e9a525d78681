//go:build !amd64

package minilm

const useGELUAVX2 = false

func geluAVX2(row, bias *float32, n int) { panic("minilm: no vector GELU on this architecture") }
