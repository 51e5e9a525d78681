package minilm

import "github.com/mneme-ai/mneme/internal/gemm"

// Int8Version identifies the int8 path's vectors (the minilm-int8
// embedder): they differ from fp32 vectors by up to ~1e-2 in cosine, so
// they are another embedder identity and never mix with fp32 ones.
const Int8Version = "int8-dyn-0.1.0/1"

// quantised holds a layer's linear weights in int8 (dynamic quantisation,
// as ONNX Runtime's quantize_dynamic: weights per output row ahead of
// time, activations per row on every product). Attention's own products,
// LayerNorm, GELU and softmax stay float32.
type quantised struct {
	qkv, out, ffn, prj *gemm.QMatrix
}

// Int8 returns a model sharing m's tokenizer and embeddings whose linear
// layers run in int8. It quantises ~11M weights (~0.1 s).
func (m *Model) Int8() *Model {
	q := &Model{tok: m.tok, wordEmb: m.wordEmb, posEmb: m.posEmb, typEmb: m.typEmb, lnG: m.lnG, lnB: m.lnB, layers: m.layers, parent: m}
	for i := range q.layers {
		l := &q.layers[i]
		l.q = &quantised{
			qkv: gemm.Quantize(l.qkvW, 3*hidden, hidden),
			out: gemm.Quantize(l.outW, hidden, hidden),
			ffn: gemm.Quantize(l.ffnW, inter, hidden),
			prj: gemm.Quantize(l.prjW, hidden, inter),
		}
		l.qkvW, l.outW, l.ffnW, l.prjW, l.p = nil, nil, nil, nil, nil // not used: let them go with m
	}
	return q
}

// linear computes c = a·wᵀ + bias, or with residual c += a·wᵀ + bias,
// with the layer's i-th product (qkv, out, ffn, prj): packed float32
// weights, or their int8 form when the model is quantised.
func (ws *workspace) linear(c, a []float32, l *layer, i int, bias []float32, residual bool, m int) {
	flags := 0
	if bias != nil {
		flags |= gemm.AddBias
	}
	if residual {
		flags |= gemm.Accumulate
	}
	if q := l.q.get(i); q != nil {
		gemm.QMul(c, a, q, m, bias, flags)
		return
	}
	ws.matMulP(c, a, l.p.get(i), bias, flags, m)
}

// get returns the i-th product's int8 weights (qkv, out, ffn, prj), or nil
// for a float32 model.
func (q *quantised) get(i int) *gemm.QMatrix {
	if q == nil {
		return nil
	}
	return [...]*gemm.QMatrix{q.qkv, q.out, q.ffn, q.prj}[i]
}
