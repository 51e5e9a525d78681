package eval

import (
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 3}} {
		in := slices.Clone(c.in)
		if got := Median(c.in); got != c.want || !slices.Equal(in, c.in) {
			t.Errorf("Median(%v) = %v, want %v, input kept", in, got, c.want)
		}
	}
}
