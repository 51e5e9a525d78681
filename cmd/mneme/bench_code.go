package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/codemem"
)

// codeBench is what `mneme bench code PATH` measured, on a copy of PATH
// with its own cache directory.
type codeBench struct {
	Repository   string  `json:"repository"`
	Files        int     `json:"files"`
	ColdMS       float64 `json:"cold_explore_ms"`
	HitP50MS     float64 `json:"hit_explore_p50_ms"`
	HitMaxMS     float64 `json:"hit_explore_max_ms"`
	Touched      int     `json:"touched_files"`
	DeltaMS      float64 `json:"delta_after_touch_ms"`
	DeltaFound   int     `json:"delta_modified"`
	SliceBytes   int     `json:"compact_slice_bytes"`
	RawBytes     int     `json:"raw_baseline_bytes"`
	SliceTokens  int     `json:"compact_slice_tokens"`
	RawTokens    int     `json:"raw_baseline_tokens"`
	TokenSaving  float64 `json:"token_saving"`
	Explores     int     `json:"sequence_explores"`
	Hits         int     `json:"sequence_hits"`
	HitRatio     float64 `json:"hit_ratio"`
	ReuseRatio   float64 `json:"entry_reuse_ratio"`
	GOMAXPROCS   int     `json:"gomaxprocs"`
	MeasuredDate string  `json:"date"`
}

// runBenchCode measures code memory's KPIs on a repository.
func runBenchCode(a *app, args []string) error {
	a.name = "bench"
	fs := a.flags()
	hits := fs.Int("runs", 20, "explores measured on a cache hit")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("bench code takes one repository: mneme bench code PATH (scripts/fetch-code-bench fetches two)")
	}
	tmp, err := os.MkdirTemp("", "mneme-bench-code-")
	if err != nil {
		return mneme.InternalError(err, "create a temporary directory")
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "repo")
	if err := os.CopyFS(root, os.DirFS(pos[0])); err != nil {
		return mneme.Invalid("copy %s: %v", pos[0], err)
	}
	svc := codemem.New(codemem.Options{CacheDir: filepath.Join(tmp, "cache")})
	req := codemem.Request{ProjectRoot: root}
	r := codeBench{Repository: filepath.Base(filepath.Clean(pos[0])), GOMAXPROCS: runtime.GOMAXPROCS(0), MeasuredDate: time.Now().UTC().Format("2006-01-02")}
	start := time.Now()
	env, err := svc.Run(codemem.CmdExplore, req)
	if err != nil {
		return err
	}
	r.ColdMS, r.Files = ms(time.Since(start)), env.Stats.FileCount
	var lat []float64
	for range max(1, *hits) {
		start = time.Now()
		if env, err = svc.Run(codemem.CmdExplore, req); err != nil {
			return err
		}
		lat = append(lat, ms(time.Since(start)))
	}
	slices.Sort(lat)
	r.HitP50MS, r.HitMaxMS = lat[len(lat)/2], lat[len(lat)-1]
	slice, _ := json.Marshal(env.Context)
	raw := rawBaseline(root, env)
	r.SliceBytes, r.RawBytes, r.SliceTokens, r.RawTokens = len(slice), len(raw), len(slice)/4, len(raw)/4
	r.TokenSaving = round3(1 - float64(r.SliceTokens)/float64(max(1, r.RawTokens)))

	entries := env.Entries()
	r.Touched = min(50, len(entries))
	if err := edit(root, entries, r.Touched, 0); err != nil {
		return err
	}
	start = time.Now()
	if env, err = svc.Run(codemem.CmdDelta, req); err != nil {
		return err
	}
	r.DeltaMS, r.DeltaFound = ms(time.Since(start)), env.Delta.Modified
	if err := r.sequence(svc, req, root, entries); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(r)
	}
	fmt.Fprintf(a.stdout, "%s: %d files\nexplore: cold %.1f ms, cache hit p50 %.2f ms (max %.2f) over %d runs\n", r.Repository, r.Files, r.ColdMS, r.HitP50MS, r.HitMaxMS, len(lat))
	fmt.Fprintf(a.stdout, "delta after touching %d files: %.1f ms (%d modified found)\n", r.Touched, r.DeltaMS, r.DeltaFound)
	fmt.Fprintf(a.stdout, "compact slice %d bytes (~%d tokens) vs raw listing + entry points %d bytes (~%d tokens): %.1f%% fewer tokens\n",
		r.SliceBytes, r.SliceTokens, r.RawBytes, r.RawTokens, 100*r.TokenSaving)
	fmt.Fprintf(a.stdout, "scripted sequence: %d/%d explores hit the cache (%.1f%%), %.1f%% of entries reused\n", r.Hits, r.Explores, 100*r.HitRatio, 100*r.ReuseRatio)
	return nil
}

// sequence runs a scripted session: a cold explore, then rounds of edits
// (a few files changed, a file added and removed, a checkout touching many
// files without changing them) each followed by an explore, then a day
// later (the TTL) one more.
func (r *codeBench) sequence(svc *codemem.Service, req codemem.Request, root string, entries []codemem.Entry) error {
	var reused, rehashed int
	explore := func() error {
		env, err := svc.Run(codemem.CmdExplore, req)
		if err != nil {
			return err
		}
		r.Explores++
		if env.CacheStatus == codemem.Hit {
			r.Hits++
		}
		reused, rehashed = reused+env.Stats.ReusedEntries, rehashed+env.Stats.RehashedEntries
		return nil
	}
	for round := range 20 {
		var err error
		switch round % 4 {
		case 0:
			err = edit(root, entries, 3, round)
		case 1:
			err = os.WriteFile(filepath.Join(root, fmt.Sprintf("bench_new_%d.txt", round)), []byte("new file\n"), 0o644)
		case 2:
			err = os.Remove(filepath.Join(root, fmt.Sprintf("bench_new_%d.txt", round-1)))
		case 3: // a checkout: many files touched, none changed
			now := time.Now()
			for i := 0; i < len(entries); i += 10 {
				os.Chtimes(filepath.Join(root, filepath.FromSlash(entries[i].Path)), now, now)
			}
		}
		if err != nil {
			return mneme.InternalError(err, "edit the copy")
		}
		if err := explore(); err != nil {
			return err
		}
	}
	r.HitRatio = round3(float64(r.Hits) / float64(max(1, r.Explores)))
	r.ReuseRatio = round3(float64(reused) / float64(max(1, reused+rehashed)))
	return nil
}

// edit appends a line to n files spread over entries (offset varies them).
func edit(root string, entries []codemem.Entry, n, offset int) error {
	step := max(1, len(entries)/max(1, n))
	for i := range n {
		e := entries[(offset+i*step)%len(entries)]
		f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(e.Path)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return mneme.InternalError(err, "edit the copy")
		}
		fmt.Fprintf(f, "\n")
		f.Close()
	}
	return nil
}

// rawBaseline is what an agent reads without the slice: the listing of
// every file (path and size) and the content of each entry point's files.
func rawBaseline(root string, env *codemem.Envelope) []byte {
	var b strings.Builder
	for _, e := range env.Entries() {
		fmt.Fprintf(&b, "%s %d\n", e.Path, e.Size)
	}
	seen := map[string]bool{}
	read := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			b.Write(data)
		}
	}
	for _, ep := range env.Context.EntryPoints {
		if ep.Kind != "go-main" {
			read(ep.Path)
			continue
		}
		for _, e := range env.Entries() {
			if filepath.ToSlash(filepath.Dir(e.Path)) == ep.Path && strings.HasSuffix(e.Path, ".go") && !strings.HasSuffix(e.Path, "_test.go") {
				read(e.Path)
			}
		}
	}
	return []byte(b.String())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
