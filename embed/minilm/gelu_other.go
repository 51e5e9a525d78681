//go:build !amd64

package minilm

// A variable, as on amd64, so that the tests that switch paths build here.
var useGELUAVX2 = false

func geluAVX2(row, bias *float32, n int) { panic("minilm: no vector GELU on this architecture") }
