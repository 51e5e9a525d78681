package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// buckets are the histograms' upper bounds in seconds: from a cached
// lexical recall to a slow embedding provider.
var buckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

func (h *histogram) observe(seconds float64) {
	if h.counts == nil {
		h.counts = make([]uint64, len(buckets)+1)
	}
	i, _ := slices.BinarySearch(buckets, seconds) // the first bound >= seconds: le is inclusive
	h.counts[i]++
	h.sum += seconds
	h.n++
}

// metrics holds the series /metrics exposes, keyed by their label values.
type metrics struct {
	mu       sync.Mutex
	requests map[[3]string]uint64 // route, method, code
	latency  map[string]*histogram
	stages   map[string]*histogram
	cache    map[[2]string]uint64 // kind, result (hit or miss)
}

func newMetrics() *metrics {
	return &metrics{requests: map[[3]string]uint64{}, latency: map[string]*histogram{}, stages: map[string]*histogram{}, cache: map[[2]string]uint64{}}
}

func (m *metrics) observeRequest(route, method string, status int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[[3]string{route, methodLabel(method), strconv.Itoa(status)}]++
	hist(m.latency, route).observe(d.Seconds())
}

// observeStage is the engine's recall observer; recalls run concurrently.
func (m *metrics) observeStage(stage string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	hist(m.stages, stage).observe(d.Seconds())
}

// observeCache is the engine's cache observer: one lookup of kind.
func (m *metrics) observeCache(kind string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cache[[2]string{kind, result}]++
}

func hist(hs map[string]*histogram, key string) *histogram {
	h := hs[key]
	if h == nil {
		h = &histogram{}
		hs[key] = h
	}
	return h
}

// metrics writes the Prometheus text exposition format 0.0.4.
func (s *server) metrics(w http.ResponseWriter, r *http.Request) error {
	var b strings.Builder
	s.series.write(&b)
	if s.cfg.StoreSize != nil {
		family(&b, "mneme_store_size_bytes", "gauge", "Bytes the store takes on disk.")
		fmt.Fprintf(&b, "mneme_store_size_bytes %d\n", s.cfg.StoreSize())
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_, err := io.WriteString(w, b.String())
	return err
}

func (m *metrics) write(b *strings.Builder) {
	m.mu.Lock()
	defer m.mu.Unlock()
	family(b, "mneme_http_requests_total", "counter", "HTTP requests by route pattern, method and status code.")
	keys := make([][3]string, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [3]string) int { return slices.Compare(a[:], b[:]) })
	for _, k := range keys {
		fmt.Fprintf(b, "mneme_http_requests_total{route=%s,method=%s,code=%s} %d\n", quote(k[0]), quote(k[1]), quote(k[2]), m.requests[k])
	}
	writeHistograms(b, "mneme_http_request_duration_seconds", "route", "HTTP request duration by route pattern.", m.latency)
	family(b, "mneme_cache_lookups_total", "counter", "Result cache lookups by kind and result (hit or miss).")
	ckeys := make([][2]string, 0, len(m.cache))
	for k := range m.cache {
		ckeys = append(ckeys, k)
	}
	slices.SortFunc(ckeys, func(a, b [2]string) int { return slices.Compare(a[:], b[:]) })
	for _, k := range ckeys {
		fmt.Fprintf(b, "mneme_cache_lookups_total{kind=%s,result=%s} %d\n", quote(k[0]), quote(k[1]), m.cache[k])
	}
	writeHistograms(b, "mneme_recall_stage_duration_seconds", "stage", "Recall stage duration (embed, search, feedback, rank, expand).", m.stages)
}

func writeHistograms(b *strings.Builder, name, label, help string, hs map[string]*histogram) {
	family(b, name, "histogram", help)
	keys := make([]string, 0, len(hs))
	for k := range hs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		h, lv := hs[k], label+"="+quote(k)
		var cum uint64
		for i, c := range h.counts {
			cum += c
			le := "+Inf"
			if i < len(buckets) {
				le = strconv.FormatFloat(buckets[i], 'g', -1, 64)
			}
			fmt.Fprintf(b, "%s_bucket{%s,le=%q} %d\n", name, lv, le, cum)
		}
		fmt.Fprintf(b, "%s_sum{%s} %s\n%s_count{%s} %d\n", name, lv, strconv.FormatFloat(h.sum, 'g', -1, 64), name, lv, h.n)
	}
}

func family(b *strings.Builder, name, typ, help string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

// quote escapes a label value as the exposition format wants: backslash,
// double quote and newline.
func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v) + `"`
}
