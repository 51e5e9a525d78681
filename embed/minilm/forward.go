package minilm

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/mneme-ai/mneme/internal/gemm"
)

// workspace holds the activations of one batch; pooled so that repeated
// Embed calls do not allocate them again.
type workspace struct {
	x    []float32 // [rows×hidden] hidden states
	qkv  []float32 // [rows×3·hidden]
	ctx  []float32 // [rows×hidden] attention output before projection
	ff   []float32 // [rows×inter]
	att  []attScratch
	seqs []seqSpan
	team *team // the other cores, held through a small pass (see team)
}

type seqSpan struct{ start, len int }

func (w *workspace) grow(rows int) {
	if cap(w.x) >= rows*hidden {
		return
	}
	rows = (rows + 63) &^ 63
	w.x = make([]float32, rows*hidden)
	w.qkv = make([]float32, rows*3*hidden)
	w.ctx = make([]float32, rows*hidden)
	w.ff = make([]float32, rows*inter)
}

// forward runs the encoder over the sequences packed as consecutive rows
// and writes each sequence's pooled, normalised embedding to out.
func (m *Model) forward(w *workspace, seqs [][]int32, out [][]float32) {
	m.pack()
	w.seqs = w.seqs[:0]
	rows := 0
	for _, ids := range seqs {
		w.seqs = append(w.seqs, seqSpan{rows, len(ids)})
		rows += len(ids)
	}
	w.grow(rows)
	if workers := runtime.GOMAXPROCS(0); rows < splitRows && workers > 1 {
		if w.team = startTeam(workers - 1); w.team != nil {
			defer func() { w.team.stop(); w.team = nil }()
		}
	}
	x, qkv, ctx, ff := w.x[:rows*hidden], w.qkv[:rows*3*hidden], w.ctx[:rows*hidden], w.ff[:rows*inter]

	typ0 := m.typEmb[:hidden]
	r := 0
	for _, ids := range seqs {
		for p, id := range ids {
			row := x[r*hidden : (r+1)*hidden]
			word := m.wordEmb[int(id)*2*hidden : (int(id)+1)*2*hidden]
			pos := m.posEmb[p*hidden : (p+1)*hidden]
			for j := range row {
				row[j] = f16ToF32(binary.LittleEndian.Uint16(word[2*j:])) + typ0[j] + pos[j]
			}
			r++
		}
	}
	w.parallel(rows, hidden, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			layerNorm(x[r*hidden:(r+1)*hidden], m.lnG, m.lnB)
		}
	})

	for i := range m.layers {
		l := &m.layers[i]
		w.linear(qkv, x, l, 0, l.qkvB, false, rows)
		m.attention(w, qkv, ctx)
		w.linear(x, ctx, l, 1, l.outB, true, rows) // x += ctx·Woᵀ + b
		w.layerNorms(x, l.ln1G, l.ln1B, rows)
		w.linear(ff, x, l, 2, nil, false, rows)
		w.parallel(rows, 8*inter, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				biasGELUFast(ff[r*inter:(r+1)*inter], l.ffnB)
			}
		})
		w.linear(x, ff, l, 3, l.prjB, true, rows) // x += gelu·Wpᵀ + b
		w.layerNorms(x, l.ln2G, l.ln2B, rows)
	}

	for s, sp := range w.seqs {
		meanPoolNormalize(out[s], x[sp.start*hidden:(sp.start+sp.len)*hidden], sp.len)
	}
}

// splitRows: products with fewer rows (a short query) are split across the
// cores here, by blocks of weight rows. gemm keeps such small products on
// one core, but a query is bound by streaming 42 MB of weights from memory,
// and sharing that stream still pays (~8% on a 14-token query).
const (
	splitRows   = 32
	splitBlocks = 8 // divides hidden, 3·hidden and inter into multiples of 16
)

// matMulP computes c = a·wᵀ (+ bias, + c: flags) for activations a (m×k)
// and packed weights w.
func (ws *workspace) matMulP(c, a []float32, w *gemm.Panels, bias []float32, flags, m int) {
	workers := runtime.GOMAXPROCS(0)
	if m >= splitRows || workers == 1 {
		gemm.MulPanels(c, w.N, a, w.K, w, m, bias, flags)
		return
	}
	nb := w.N / splitBlocks
	ws.spread(splitBlocks, workers, func(_, b int) {
		gemm.MulPanelsCols(c, w.N, a, w.K, w, m, bias, flags, b*nb, (b+1)*nb)
	})
}

// layerNorms normalises each row of x: with the residual added by the
// product before it, the end of every BERT sub-layer.
func (w *workspace) layerNorms(x, g, b []float32, rows int) {
	w.parallel(rows, 4*hidden, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			layerNorm(x[r*hidden:(r+1)*hidden], g, b)
		}
	})
}

// layerNorm normalises one row in place. Statistics are float64 (one pass:
// E[x²]−mean² loses nothing at these magnitudes in float64), with four
// accumulators so the adds do not wait on each other.
func layerNorm(row, g, b []float32) {
	var s0, s1, s2, s3, q0, q1, q2, q3 float64
	j := 0
	for ; j+4 <= len(row); j += 4 {
		v0, v1, v2, v3 := float64(row[j]), float64(row[j+1]), float64(row[j+2]), float64(row[j+3])
		s0, s1, s2, s3 = s0+v0, s1+v1, s2+v2, s3+v3
		q0, q1, q2, q3 = q0+v0*v0, q1+v1*v1, q2+v2*v2, q3+v3*v3
	}
	for ; j < len(row); j++ {
		v := float64(row[j])
		s0, q0 = s0+v, q0+v*v
	}
	n := float64(len(row))
	mean := (s0 + s1 + s2 + s3) / n
	variance := max((q0+q1+q2+q3)/n-mean*mean, 0)
	inv := 1 / math.Sqrt(variance+lnEps)
	g, b = g[:len(row)], b[:len(row)]
	for j, v := range row {
		row[j] = float32((float64(v)-mean)*inv*float64(g[j]) + float64(b[j]))
	}
}

// meanPoolNormalize averages a sequence's token rows and L2-normalises the
// result (sentence-transformers' Pooling(mean) + Normalize).
func meanPoolNormalize(dst, rows []float32, n int) {
	var acc [hidden]float64
	for r := 0; r < n; r++ {
		for j, v := range rows[r*hidden : (r+1)*hidden] {
			acc[j] += float64(v)
		}
	}
	var ss float64
	for j := range acc {
		acc[j] /= float64(n)
		ss += acc[j] * acc[j]
	}
	norm := max(math.Sqrt(ss), 1e-12)
	for j := range dst {
		dst[j] = float32(acc[j] / norm)
	}
}

// parallel runs fn over [0,n) in row ranges shared among the cores when
// n·cost (rough work units) is large enough to repay waking them.
func (w *workspace) parallel(n, cost int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if workers <= 1 || n*cost < 1<<16 {
		fn(0, n)
		return
	}
	chunks := min(n, 4*workers) // a few per core, so a late helper still helps
	w.spread(chunks, workers, func(_, c int) { fn(c*n/chunks, (c+1)*n/chunks) })
}

// spread is the package's spread, on the pass's team when it holds one.
func (w *workspace) spread(n, workers int, fn func(worker, i int)) {
	if w.team != nil && workers > 1 && n > 1 {
		w.team.do(n, fn)
		return
	}
	spread(n, workers, fn)
}

// spread calls fn(worker, i) for every i in [0,n) on the calling goroutine
// and up to workers-1 helpers, handing out indices dynamically. It returns
// when every call is done without waiting for helpers as such: waking an
// idle vCPU can take 100 µs, and a helper that starts late simply finds
// nothing left to do.
func spread(n, workers int, fn func(worker, i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(0, i)
		}
		return
	}
	var next, done atomic.Int64
	finished := make(chan struct{})
	work := func(worker int) {
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			fn(worker, i)
			if int(done.Add(1)) == n {
				close(finished)
			}
		}
	}
	for w := 1; w < workers; w++ {
		go work(w)
	}
	work(0)
	<-finished
}
