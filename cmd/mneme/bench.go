package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/internal/eval"
)

func init() {
	commands["bench"] = command{
		usage:   "bench locomo FILE [--context TOKENS] | bench beir DIR | bench ground LOCOMO_FILE | bench code PATH",
		summary: "measure recall quality and speed on an external benchmark, in a temporary data directory",
		run:     runBench,
	}
}

// benchReport is what a benchmark run measured.
type benchReport struct {
	Dataset       string       `json:"dataset"`
	Split         string       `json:"split,omitempty"` // beir: the judged queries asked
	Records       int          `json:"records"`
	Unembedded    int          `json:"unembedded,omitempty"` // stored without a vector (--embedded)
	IngestSeconds float64      `json:"ingest_seconds"`
	Modes         []modeReport `json:"modes"`
	// Context is the context package benchmark (locomo --context N).
	Context *contextReport `json:"context,omitempty"`
	// Summaries: bench locomo --summaries (bench_summarize.go).
	Summaries *summaryReport `json:"summaries,omitempty"`
}

// modeReport holds one recall mode's metrics by group (a LoCoMo category,
// or "all").
type modeReport struct {
	Mode       string                        `json:"mode"`
	Queries    int                           `json:"queries"`
	QueryP50MS float64                       `json:"query_p50_ms"`
	QueryP99MS float64                       `json:"query_p99_ms"`
	Groups     map[string]map[string]float64 `json:"groups"`
}

func runBench(a *app, args []string) error {
	if len(args) > 0 && args[0] == "code" {
		return runBenchCode(a, args[1:])
	}
	fs := a.flags()
	a.embedderFlag(fs)
	keep := fs.Bool("keep", false, "keep the temporary data directory and print its path")
	reuse := fs.String("reuse", "", "measure on the data directory a previous --keep run left, without ingesting again")
	budget := fs.Int("context", 0, "locomo: also build a context package of this many tokens per question and report the evidence it keeps (default modes: hybrid)")
	var o recallOptions
	o.register(fs)
	var modes listFlag
	fs.Var(&modes, "modes", "modes to measure (comma list; default lexical,vector,hybrid,hybrid+expand)")
	summaries := fs.Int("summaries", 0, "locomo: also summarize each session extractively in at most this many words (like 250), measure how much evidence the summaries keep, and recall again with them indexed")
	split := fs.String("split", "test", "beir: the judged queries to ask: test, dev or train")
	long := fs.Bool("long", false, "beir: ask with documents instead (long queries): for each judged query of the split, its first document judged most relevant asks for the others judged for that query, itself left out")
	embedded := fs.Float64("embedded", 1, "fraction of the records to embed, the rest stored without a vector as by import --embedder none (a partly embedded home)")
	var sweep listFlag
	fs.Var(&sweep, "sweep", "measure each mode once per value of a ranking profile field: FIELD=V1,V2,... (like date_boost=0.1,0.2,0.3)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || (pos[0] != "locomo" && pos[0] != "beir" && pos[0] != "ground") {
		return mneme.Invalid("bench takes a dataset and its path: mneme bench locomo FILE, mneme bench beir DIR, or mneme bench ground LOCOMO_FILE")
	}
	if err := datasetPath(pos[0], pos[1]); err != nil {
		return err
	}
	if *budget != 0 {
		if err := contextpack.CheckBudget(*budget); err != nil {
			return err
		}
		if len(modes) == 0 {
			modes = listFlag{"hybrid"}
		}
	}
	if *split != "test" && *split != "dev" && *split != "train" {
		return mneme.Invalid("--split %q is not one of test, dev, train", mneme.Clip(*split))
	}
	if !(*embedded > 0 && *embedded <= 1) {
		return mneme.Invalid("--embedded %g is out of range: give the fraction of records to embed, above 0 and at most 1", *embedded)
	}
	if *reuse != "" {
		a.home = *reuse
	} else if a.home, err = os.MkdirTemp("", "mneme-bench-"); err != nil {
		return mneme.InternalError(err, "create a temporary data directory")
	}
	if *keep || *reuse != "" {
		a.warn(WKEPT, "data directory: "+a.home)
	} else {
		defer os.RemoveAll(a.home)
	}
	if err := a.benchStore(); err != nil {
		return err
	}
	profiles, err := a.sweepProfiles(o.profile, sweep)
	if err != nil {
		return err
	}
	eng, err := a.open(config.Embedding, profiles...)
	if err != nil {
		return err
	}
	defer eng.Close()
	if d, ok := eng.Store().(interface{ DropSchema(context.Context) error }); ok && !*keep {
		defer d.DropSchema(context.Background())
	}
	if pos[0] == "ground" {
		rep, err := benchGround(a, eng, pos[1])
		if err != nil || a.json {
			return cmp.Or(err, a.printJSON(rep))
		}
		printGroundReport(a, rep)
		return nil
	}
	ms, err := benchModes(o, modes, eng.Embedder() != nil)
	if err != nil {
		return err
	}
	ms = sweepModes(ms, o.profile, sweep)
	w := &benchWriter{eng: eng, embedded: *embedded}
	var rep *benchReport
	if pos[0] == "locomo" {
		var owner map[string][]string
		rep, owner, err = benchLoCoMo(a, eng, w, pos[1], ms, *reuse != "", *summaries)
		if err == nil && *budget > 0 {
			rep.Context, err = benchContext(a, eng, pos[1], *budget, o.request(mneme.RecallRequest{}), owner)
		}
	} else {
		rep, err = benchBEIR(a, eng, w, pos[1], *split, *long, ms, *reuse != "")
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(rep)
	}
	printReport(a, rep)
	if rep.Context != nil {
		printContextReport(a, rep.Context)
	}
	return nil
}

// benchStore points a shared store at a schema of its own, so a benchmark
// starts empty and leaves the server's other data alone.
func (a *app) benchStore() error {
	c, err := a.config()
	if err != nil {
		return err
	}
	if c.Store == "postgres" {
		b := make([]byte, 6)
		rand.Read(b)
		c.Store = "postgres:mneme_bench_" + hex.EncodeToString(b)
	}
	return nil
}

// benchWriter stores a benchmark's records, embedding the given fraction
// of them (all, unless --embedded says less).
type benchWriter struct {
	eng        *mneme.Engine
	embedded   float64
	unembedded int // records stored without a vector
}

// remember stores recs. With a fraction to embed, all are first stored
// without a vector, in order (turns of one session share a time, so their
// order of writing is their order), then the chosen ones written again
// with the embedder: each is a duplicate whose vector fills in the stored
// record's, embedded as it would have been (after the turn before it). A
// record is chosen by its text's hash, so every run chooses the same.
func (w *benchWriter) remember(a *app, recs []*mneme.Record) error {
	opts := mneme.WriteOptions{Redact: true}
	if w.embedded >= 1 {
		_, err := w.eng.Remember(a.ctx, recs, opts)
		return err
	}
	var chosen []*mneme.Record
	for _, r := range recs {
		h, _ := strconv.ParseUint(mneme.TextHash(r.Text)[:15], 16, 64)
		if float64(h)/(1<<60) < w.embedded {
			c := *r
			chosen = append(chosen, &c)
		}
	}
	if _, err := mneme.NewEngine(w.eng.Store()).Remember(a.ctx, recs, opts); err != nil {
		return err
	}
	w.unembedded += len(recs) - len(chosen)
	if len(chosen) == 0 {
		return nil
	}
	_, err := w.eng.Remember(a.ctx, chosen, opts)
	return err
}

// benchMode is one way of recalling that a benchmark measures.
type benchMode struct {
	name    string
	req     mneme.RecallRequest // the options; query, project and k are set per question
	profile string              // the ranking profile by name; "": the home's
}

// benchModes are the named modes (lexical, vector, hybrid, hybrid+expand),
// each with the recall options given on the command line. Without an
// embedder only lexical can run.
func benchModes(o recallOptions, names []string, vectors bool) ([]benchMode, error) {
	if len(names) == 0 {
		names = []string{"lexical", "vector", "hybrid", "hybrid+expand"}
		if !vectors {
			names = names[:1]
		}
	}
	base := o.request(mneme.RecallRequest{})
	var out []benchMode
	for _, name := range names {
		r := base
		switch name {
		case "lexical", "vector", "hybrid":
			r.Mode = mneme.Mode(name)
		case "hybrid+expand":
			r.Mode, r.Expand = mneme.Hybrid, max(r.Expand, 2)
		default:
			return nil, mneme.Invalid("mode %q is not one of lexical, vector, hybrid, hybrid+expand", mneme.Clip(name))
		}
		if !vectors && r.Mode != mneme.Lexical {
			return nil, mneme.Invalid("mode %s needs an embedder: drop --embedder none, or measure --modes lexical", name)
		}
		out = append(out, benchMode{name: name, req: r})
	}
	return out, nil
}

// recallIDs runs one recall through the Engine, as the CLI does, and
// returns the hits' record ids (expanded records right after their hit) and
// the time it took.
func recallIDs(a *app, eng *mneme.Engine, m benchMode, text, project string, k int) ([]string, time.Duration, error) {
	req := m.req
	req.Query, req.Project, req.K = text, project, mneme.Count(k)
	q, err := req.ToQuery(time.Now(), mneme.Internal)
	if mneme.ErrorCode(err) == mneme.EINVALID { // a question of punctuation retrieves nothing
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	q.Profile = m.profile
	t0 := time.Now()
	res, err := eng.Recall(a.ctx, q)
	took := time.Since(t0)
	if mneme.ErrorCode(err) == mneme.EINVALID { // a question of stopwords and punctuation retrieves nothing
		return nil, took, nil
	}
	if err != nil {
		return nil, took, err
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ID
	}
	return ids, took, nil
}

// expand maps record ids to the benchmark ids they stand for (a record can
// stand for several identical texts).
func expand(ids []string, owner map[string][]string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, owner[id]...)
	}
	return out
}

func benchLoCoMo(a *app, eng *mneme.Engine, w *benchWriter, path string, modes []benchMode, reuse bool, summaryWords int) (*benchReport, map[string][]string, error) {
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		return nil, nil, mneme.Invalid("%v", err)
	}
	rep := &benchReport{Dataset: "locomo"}
	owner := map[string][]string{}
	t0 := time.Now()
	written := convs
	if reuse {
		if err := dropSummaries(a, eng); err != nil {
			return nil, nil, err
		}
		var items []benchItem
		for _, c := range convs {
			for _, t := range c.Turns {
				items = append(items, benchItem{c.ID, t.Text, t.DiaID})
			}
		}
		if owner, rep.Records, err = reuseOwners(a, eng, items); err != nil {
			return nil, nil, err
		}
		written = nil
	}
	for _, c := range written {
		recs := make([]*mneme.Record, len(c.Turns))
		for i, t := range c.Turns {
			meta, _ := json.Marshal(map[string]string{"dia_id": t.DiaID})
			recs[i] = &mneme.Record{Project: c.ID, Type: mneme.Episodic, Kind: "turn", Text: t.Text, Speaker: t.Speaker,
				SessionID: fmt.Sprintf("%s/session_%d", c.ID, t.Session), OccurredAt: &t.Date, Meta: meta}
		}
		if err := w.remember(a, recs); err != nil {
			return nil, nil, err
		}
		for i, r := range recs { // a duplicate text resolves to the stored record's id
			owner[r.ID] = append(owner[r.ID], c.Turns[i].DiaID)
		}
		rep.Records += len(recs)
	}
	rep.IngestSeconds, rep.Unembedded = time.Since(t0).Seconds(), w.unembedded
	for _, m := range modes {
		r, err := locomoMode(a, eng, m, convs, owner)
		if err != nil {
			return nil, nil, err
		}
		rep.Modes = append(rep.Modes, r)
	}
	if summaryWords > 0 {
		if rep.Summaries, err = benchSummaries(a, eng, convs, owner, modes, summaryWords); err != nil {
			return nil, nil, err
		}
	}
	return rep, owner, nil
}

// locomoMode asks every question in one mode: recall@k per category, over
// the question's conversation only.
func locomoMode(a *app, eng *mneme.Engine, m benchMode, convs []eval.Conversation, owner map[string][]string) (modeReport, error) {
	ks := []int{1, 5, 10, 25}
	sums := map[string]map[string]float64{}
	add := func(group, metric string, v float64) {
		if sums[group] == nil {
			sums[group] = map[string]float64{}
		}
		sums[group][metric] += v
	}
	var lat []time.Duration
	for _, c := range convs {
		for _, q := range c.Questions {
			ids, took, err := recallIDs(a, eng, m, q.Text, c.ID, 25)
			if err != nil {
				return modeReport{}, err
			}
			lat = append(lat, took)
			groups := []string{fmt.Sprint(q.Category)}
			if q.Category >= 1 && q.Category <= 4 {
				groups = append(groups, "overall_1_4")
			}
			for _, g := range groups {
				add(g, "n", 1)
				for _, k := range ks {
					add(g, fmt.Sprintf("r@%d", k), eval.RecallAt(expand(ids[:min(k, len(ids))], owner), q.Evidence, len(ids)+1000))
				}
			}
		}
	}
	return finish(m.name, sums, lat), nil
}

func benchBEIR(a *app, eng *mneme.Engine, w *benchWriter, dir, split string, long bool, modes []benchMode, reuse bool) (*benchReport, error) {
	b, err := eval.LoadBEIR(dir, split)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	rep := &benchReport{Dataset: "beir", Split: split}
	var self map[string]string // long: each query's own document, left out of its hits
	if long {
		self = b.DocumentQueries()
		rep.Split += " (documents as queries)"
	}
	owner := map[string][]string{}
	t0 := time.Now()
	if reuse {
		var items []benchItem
		for _, d := range b.Docs {
			if text := docText(d); text != "" {
				items = append(items, benchItem{"beir", text, d.ID})
			}
		}
		if owner, rep.Records, err = reuseOwners(a, eng, items); err != nil {
			return nil, err
		}
		b.Docs = nil
	}
	for start := 0; start < len(b.Docs); start += 1000 {
		docs := b.Docs[start:min(start+1000, len(b.Docs))]
		recs := make([]*mneme.Record, 0, len(docs))
		kept := make([]eval.Doc, 0, len(docs))
		for _, d := range docs {
			text := docText(d)
			if text == "" {
				continue
			}
			meta, _ := json.Marshal(map[string]string{"doc_id": d.ID})
			recs = append(recs, &mneme.Record{Project: "beir", Kind: "document", Title: d.Title, Text: text, Meta: meta})
			kept = append(kept, d)
		}
		if err := w.remember(a, recs); err != nil {
			return nil, err
		}
		for i, r := range recs {
			owner[r.ID] = append(owner[r.ID], kept[i].ID)
		}
		rep.Records += len(recs)
	}
	rep.IngestSeconds, rep.Unembedded = time.Since(t0).Seconds(), w.unembedded
	ids := make([]string, 0, len(b.Queries))
	for id := range b.Queries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, m := range modes {
		sums := map[string]map[string]float64{"all": {}}
		var lat []time.Duration
		for _, qid := range ids {
			hits, took, err := recallIDs(a, eng, m, b.Queries[qid], "beir", 101)
			if err != nil {
				return nil, err
			}
			lat = append(lat, took)
			docs := slices.DeleteFunc(expand(hits, owner), func(d string) bool { return d == self[qid] })
			docs = docs[:min(100, len(docs))]
			sums["all"]["n"]++
			sums["all"]["ndcg@10"] += eval.NDCGAt(docs, b.Qrels[qid], 10)
			sums["all"]["recall@10"] += eval.RecallRelevantAt(docs, b.Qrels[qid], 10)
			sums["all"]["recall@100"] += eval.RecallRelevantAt(docs, b.Qrels[qid], 100)
		}
		rep.Modes = append(rep.Modes, finish(m.name, sums, lat))
	}
	return rep, nil
}

// docText is what a BEIR document is stored as: its text, else its title
// (a few have only a title), else nothing (it cannot be stored).
func docText(d eval.Doc) string {
	for _, text := range []string{d.Text, d.Title} {
		if mneme.ValidateText(text) == nil {
			return text
		}
	}
	return ""
}

// finish turns sums into means (n stays a count) and adds the timings.
func finish(mode string, sums map[string]map[string]float64, lat []time.Duration) modeReport {
	m := modeReport{Mode: mode, Queries: len(lat), Groups: sums}
	for _, g := range sums {
		for name, v := range g {
			if name != "n" && g["n"] > 0 {
				g[name] = float64(int(v/g["n"]*10000+0.5)) / 10000
			}
		}
	}
	m.QueryP50MS, m.QueryP99MS = eval.Percentiles(lat)
	return m
}

func printReport(a *app, rep *benchReport) {
	fmt.Fprintf(a.stdout, "%s: %d records ingested in %.1f s\n", rep.Dataset, rep.Records, rep.IngestSeconds)
	if rep.Split != "" {
		fmt.Fprintf(a.stdout, "queries: the %s split\n", rep.Split)
	}
	if rep.Unembedded > 0 {
		fmt.Fprintf(a.stdout, "%d of them stored without a vector (--embedded)\n", rep.Unembedded)
	}
	for _, m := range rep.Modes {
		fmt.Fprintf(a.stdout, "\nmode %s: %d queries, p50 %.2f ms, p99 %.2f ms\n", m.Mode, m.Queries, m.QueryP50MS, m.QueryP99MS)
		groups := make([]string, 0, len(m.Groups))
		for g := range m.Groups {
			groups = append(groups, g)
		}
		sort.Strings(groups)
		for _, g := range groups {
			fmt.Fprintf(a.stdout, "  %-12s", g)
			names := make([]string, 0, len(m.Groups[g]))
			for n := range m.Groups[g] {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				fmt.Fprintf(a.stdout, "  %s %g", n, m.Groups[g][n])
			}
			fmt.Fprintln(a.stdout)
		}
	}
	if rep.Summaries != nil {
		printSummaryReport(a, rep.Summaries)
	}
}

// maxDatasetBytes bounds a LoCoMo file (the real one is under 3 MB).
const maxDatasetBytes = 256 << 20

// datasetPath checks a benchmark's path before it is read whole: a LoCoMo
// file is a regular file of a bounded size (not a device or a pipe, read
// without end), BEIR's a directory.
func datasetPath(dataset, path string) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return mneme.Invalid("cannot read %s: %v", path, unwrapPath(err))
	case dataset == "beir":
		if !st.IsDir() {
			return mneme.Invalid("%s is not a directory: give BEIR's dataset directory (corpus.jsonl, queries.jsonl, qrels/)", path)
		}
	case !st.Mode().IsRegular():
		return mneme.Invalid("%s is not a regular file: give the LoCoMo JSON file", path)
	case st.Size() > maxDatasetBytes:
		return mneme.Invalid("%s is %s, over the %s a LoCoMo file may hold", path, mneme.FormatSize(st.Size()), mneme.FormatSize(maxDatasetBytes))
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
