package benchdata

import (
	"bufio"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/embed/minilm"
	"github.com/mneme-ai/mneme/internal/skips"
)

// MiniLM loads the built-in embedding model from where mneme looks for it,
// or skips the benchmark, with the reason, when it is not installed.
func MiniLM(b *testing.B) *minilm.Embedder {
	b.Helper()
	em, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	if err != nil {
		skips.Skip(b, "mneme model fetch", "the built-in model is not installed: "+mneme.ErrorMessage(err))
	}
	return em
}

// Vectors generates clustered unit vectors standing in for embeddings of
// notes on a limited number of topics: fixed random centres, each vector a
// centre plus Gaussian noise, normalised. One seed gives the same vectors.
type Vectors struct {
	dim     int
	rng     *rand.Rand
	centres [][]float32
}

// NewVectors returns a generator of dim-dimensional vectors around centres
// cluster centres.
func NewVectors(seed uint64, dim, centres int) *Vectors {
	v := &Vectors{dim: dim, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for range centres {
		v.centres = append(v.centres, v.unit(nil, 1))
	}
	return v
}

// Next returns the next vector: a random centre plus noise, unit length.
func (v *Vectors) Next() []float32 {
	return v.unit(v.centres[v.rng.IntN(len(v.centres))], 0.8)
}

// unit returns normalise(base + sigma·N(0,1)/√dim per coordinate).
func (v *Vectors) unit(base []float32, sigma float64) []float32 {
	out := make([]float32, v.dim)
	s, n := sigma/math.Sqrt(float64(v.dim)), 0.0
	for i := range out {
		x := v.rng.NormFloat64() * s
		if base != nil {
			x += float64(base[i])
		}
		out[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range out {
		out[i] = float32(float64(out[i]) / n)
	}
	return out
}

// AddVectors makes info the home embedder of s and gives every stored
// record a vector of info.Dim from v, written in batches of 1,000. It
// returns how many records got one.
func AddVectors(ctx context.Context, s mneme.Store, info mneme.EmbedderInfo, v *Vectors) (int, error) {
	if err := s.SetHomeEmbedder(ctx, info); err != nil {
		return 0, err
	}
	f := mneme.Filter{Now: time.Now()}
	if err := f.Check(); err != nil {
		return 0, err
	}
	n, cursor := 0, ""
	for {
		recs, next, err := s.List(ctx, f, 1000, cursor)
		if err != nil {
			return n, err
		}
		for _, r := range recs {
			r.Vector = v.Next()
		}
		if err := s.PutVectors(ctx, recs); err != nil {
			return n, err
		}
		n += len(recs)
		if cursor = next; cursor == "" {
			return n, nil
		}
	}
}

// ReportRSS reports this process's resident set now and at its peak
// (VmRSS and VmHWM of /proc/self/status), in MB, as rss-MB and hwm-MB.
// Where /proc is missing it reports nothing.
func ReportRSS(b *testing.B) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return
	}
	defer f.Close()
	metrics := map[string]string{"VmRSS:": "rss-MB", "VmHWM:": "hwm-MB"}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text()) // "VmRSS:   123456 kB"
		if len(fields) == 3 && metrics[fields[0]] != "" {
			if kb, err := strconv.ParseFloat(fields[1], 64); err == nil {
				b.ReportMetric(kb/1024, metrics[fields[0]])
			}
		}
	}
}

// ResetPeakRSS returns freed memory to the system and resets this
// process's peak resident set to its current one (Linux). Linux starts a
// child sharing its parent's memory (vfork), so the child's reported peak
// (rusage Maxrss) starts from the parent's: reset it before starting the
// children whose peak a benchmark reports, after building their data.
func ResetPeakRSS() error {
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
