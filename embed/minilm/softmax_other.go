//go:build !amd64

package minilm

// A variable, as on amd64, so that the tests that switch paths build here.
var useSoftmaxAVX2 = false

func softmaxExpAVX2(row *float32, n int, mask *int32, scale float32) float32 {
	panic("minilm: no vector softmax on this architecture")
}
