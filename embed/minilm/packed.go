package minilm

import (
	"runtime"

	"github.com/mneme-ai/mneme/internal/gemm"
)

// packedW holds a layer's linear weights packed for gemm's broadcast
// kernel (gemm.Panels), as fp16 (the model file's own precision, so the
// products are unchanged) where the CPU can widen them: ~35% faster
// products than reading the row-major float32 weights, at the cost of a
// second copy (21 MB) made once per model.
type packedW struct {
	qkv, out, ffn, prj *gemm.Panels
}

// pack packs every float32 layer's weights that the load cache did not
// hold already (see cache.go); the int8 model has none. It runs once, on
// the first Embed (or when the cache is written), so commands that never
// embed do not pay for it.
func (m *Model) pack() {
	m.packed.Do(func() {
		spread(nLayers, runtime.GOMAXPROCS(0), func(_, i int) {
			l := &m.layers[i]
			if l.q != nil || l.qkvW == nil || l.p != nil { // int8, or mapped from the load cache
				return
			}
			l.p = &packedW{
				qkv: gemm.PackHalf(l.qkvW, 3*hidden, hidden),
				out: gemm.PackHalf(l.outW, hidden, hidden),
				ffn: gemm.PackHalf(l.ffnW, inter, hidden),
				prj: gemm.PackHalf(l.prjW, hidden, inter),
			}
		})
	})
}

// get returns the i-th product's packed weights (qkv, out, ffn, prj).
func (p *packedW) get(i int) *gemm.Panels {
	return [...]*gemm.Panels{p.qkv, p.out, p.ffn, p.prj}[i]
}
