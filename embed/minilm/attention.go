package minilm

import (
	"math"
	"runtime"

	"github.com/mneme-ai/mneme/internal/gemm"
)

// attention computes softmax(q·kᵀ/√headDim)·v for every sequence and head;
// each sequence attends only to its own rows.
//
// A task is one sequence and a group of heads. With many sequences a group
// is all 12 heads: the task then reads each of its rows of qkv once, whole
// and in order, which the prefetcher follows; reading one head's 128-byte
// slice per row at a 4.6 KB stride, as a task per head would, missed cache
// on nearly every row. With few sequences (a query, or one long text) the
// groups are single heads so that both cores still get work.
func (m *Model) attention(w *workspace, qkv, ctx []float32) {
	work := 0
	for _, sp := range w.seqs {
		work += sp.len * sp.len
	}
	workers := runtime.GOMAXPROCS(0)
	if work*nHeads*headDim < 1<<16 && w.team == nil { // a team's helpers are awake already
		workers = 1
	}
	group := nHeads
	if len(w.seqs) < 4*workers {
		group = 1
	}
	groups := nHeads / group
	for len(w.att) < workers {
		w.att = append(w.att, attScratch{})
	}
	w.spread(len(w.seqs)*groups, workers, func(worker, t int) {
		sp := w.seqs[t/groups]
		w.att[worker].heads(qkv, ctx, sp.start, sp.len, t%groups*group, group)
	})
}

// vᵀ is packed as exactly two panels of 16 dimensions: headDim must be 32.
var (
	_ [headDim - 2*gemm.PanelWidth]struct{}
	_ [2*gemm.PanelWidth - headDim]struct{}
)

// attScratch holds a task's operands, head after head: k and v in gemm's
// panel layout, so both products run on the packed kernel (q is read in
// place, from qkv).
type attScratch struct {
	k, v, s []float32
	inv     []float32 // 1/Σ of each softmax row
	kp, vp  gemm.Panels
}

// heads attends heads [h0, h0+g) of the sequence at rows [start, start+n)
// and writes their outputs to ctx.
//
// Keys are padded with zeros to np, a multiple of 16 (the panel width):
// the padded score columns are exactly 0 and softmax zeroes those it sees,
// and the padded rows of v are zero, so they add exact zeros to p·v. The
// q/k/v biases are in qkv already (the product's epilogue added them).
func (sc *attScratch) heads(qkv, ctx []float32, start, n, h0, g int) {
	np := (n + gemm.PanelWidth - 1) &^ (gemm.PanelWidth - 1)
	if cap(sc.k) < g*np*headDim || cap(sc.s) < n*np {
		sc.k = make([]float32, g*np*headDim)
		sc.v = make([]float32, g*np*headDim)
		sc.s = make([]float32, np*np)
		sc.inv = make([]float32, np)
	}
	const pw = gemm.PanelWidth
	hd := g * headDim // floats of q (or k, v) per row in this group
	k, v, s, inv := sc.k[:g*np*headDim], sc.v[:g*np*headDim], sc.s[:n*np], sc.inv[:n]
	off := h0 * headDim
	for i := 0; i < n; i++ {
		row := qkv[(start+i)*3*hidden : (start+i+1)*3*hidden]
		rk, rv := row[hidden+off:hidden+off+hd], row[2*hidden+off:2*hidden+off+hd]
		kr := k[(i/pw)*pw*headDim+i%pw:] // key i is column i%pw of panel i/pw
		for h := 0; h < g; h++ {
			o := h * headDim
			kh, kd := kr[h*np*headDim:], rk[o:o+headDim]
			for d, x := range kd {
				kh[d*pw] = x
			}
			// Row i of v is row i of vᵀ's two panels (dimensions 0-15, 16-31).
			copy(v[h*np*headDim+i*pw:h*np*headDim+(i+1)*pw], rv[o:o+pw])
			copy(v[h*np*headDim+(np+i)*pw:h*np*headDim+(np+i+1)*pw], rv[o+pw:o+2*pw])
		}
	}
	if np > n {
		for h := 0; h < g; h++ {
			last := k[h*np*headDim+(np-pw)*headDim : h*np*headDim+np*headDim] // the ragged panel
			for d := 0; d < headDim; d++ {
				clear(last[d*pw+n%pw : (d+1)*pw])
			}
			vh := v[h*np*headDim : (h+1)*np*headDim]
			for p := 0; p < headDim/pw; p++ {
				clear(vh[p*np*pw+n*pw : (p+1)*np*pw])
			}
		}
	}
	for h := 0; h < g; h++ {
		sc.kp = gemm.Panels{N: np, K: headDim, Data: k[h*np*headDim : (h+1)*np*headDim]}
		sc.vp = gemm.Panels{N: headDim, K: np, Data: v[h*np*headDim : (h+1)*np*headDim]}
		gemm.MulPanels(s, np, qkv[start*3*hidden+off+h*headDim:], 3*hidden, &sc.kp, n, nil, 0)
		for i := 0; i < n; i++ {
			inv[i] = 1 / softmaxExp(s[i*np:(i+1)*np], n)
		}
		out := ctx[start*hidden+off+h*headDim:]
		gemm.MulPanels(out, hidden, s, np, &sc.vp, n, nil, 0)
		for i := 0; i < n; i++ {
			o := out[i*hidden : i*hidden+headDim]
			for j := range o {
				o[j] *= inv[i]
			}
		}
	}
}

// softmaxMask[8-r:] begins with r all-ones lanes: the vector softmax's
// mask for the last r valid floats of a row.
var softmaxMask = [16]int32{-1, -1, -1, -1, -1, -1, -1, -1}

// softmaxExp sets row[j] = exp((row[j]-max)/√headDim) for j < n and 0 for
// the padding n ≤ j < ⌈n/8⌉·8 (attention's rows are longer, and exactly 0
// past that, from the zero keys) and returns the sum: softmax before its division, which the caller does
// on the narrower output of p·v. The vector path computes in float32
// (relative error ~1e-7), the portable one in float64.
func softmaxExp(row []float32, n int) float32 {
	if useSoftmaxAVX2 {
		return softmaxExpAVX2(&row[0], n, &softmaxMask[8-n&7], float32(1/math.Sqrt(headDim)))
	}
	scale := 1 / math.Sqrt(headDim)
	mx := row[0]
	for _, v := range row[1:n] {
		if v > mx { // not max(): its NaN and ±0 handling costs a branch chain
			mx = v
		}
	}
	var sum float64
	for j, v := range row[:n] {
		e := expNonPos((float64(v) - float64(mx)) * scale)
		row[j] = float32(e)
		sum += e
	}
	clear(row[n:])
	return float32(sum)
}

// expTab[i] = 2^(i/64).
var expTab = func() (t [64]float64) {
	for i := range t {
		t[i] = math.Exp2(float64(i) / 64)
	}
	return t
}()

// expNonPos is eˣ for x ≤ 0 (softmax arguments after subtracting the max)
// to ~1e-12 relative, about twice as fast as math.Exp: eˣ = 2ᵏᐟ⁶⁴·eʳ with
// 2ᵏᐟ⁶⁴ from the exponent bits and a table, eʳ (0 ≤ r < ln2/64) by Taylor.
func expNonPos(x float64) float64 {
	// u is x in 64ths of an octave, offset so that it is ≥ 0 (and int()
	// floors) whenever the result is a normal float64. Small enough to inline.
	u := x*(64*math.Log2E) + 64*1022
	if !(u >= 0) { // underflow (or NaN)
		return 0
	}
	k := int(u)
	r := (u - float64(k)) * (math.Ln2 / 64)
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24))))
	return math.Float64frombits(uint64(1+k>>6)<<52) * expTab[k&63] * p
}
