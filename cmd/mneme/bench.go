package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/internal/eval"
)

func init() {
	commands["bench"] = command{
		usage:   "bench locomo FILE | bench beir DIR",
		summary: "measure recall quality and speed on an external benchmark, in a temporary data directory",
		run:     runBench,
	}
}

// benchReport is what a benchmark run measured.
type benchReport struct {
	Dataset       string       `json:"dataset"`
	Records       int          `json:"records"`
	Unembedded    int          `json:"unembedded,omitempty"` // stored without a vector (--embedded)
	IngestSeconds float64      `json:"ingest_seconds"`
	Modes         []modeReport `json:"modes"`
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
	fs := a.flags()
	a.embedderFlag(fs)
	keep := fs.Bool("keep", false, "keep the temporary data directory and print its path")
	var o recallOptions
	o.register(fs)
	var modes listFlag
	fs.Var(&modes, "modes", "modes to measure (comma list; default lexical,vector,hybrid,hybrid+expand)")
	embedded := fs.Float64("embedded", 1, "fraction of the records to embed, the rest stored without a vector as by import --embedder none (a partly embedded home)")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || (pos[0] != "locomo" && pos[0] != "beir") {
		return mneme.Invalid("bench takes a dataset and its path: mneme bench locomo FILE, or mneme bench beir DIR")
	}
	if !(*embedded > 0 && *embedded <= 1) {
		return mneme.Invalid("--embedded %g is out of range: give the fraction of records to embed, above 0 and at most 1", *embedded)
	}
	if a.home, err = os.MkdirTemp("", "mneme-bench-"); err != nil {
		return mneme.InternalError(err, "create a temporary data directory")
	}
	if *keep {
		fmt.Fprintln(a.stderr, "data directory:", a.home)
	} else {
		defer os.RemoveAll(a.home)
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	ms, err := benchModes(o, modes, eng.Embedder() != nil)
	if err != nil {
		return err
	}
	w := &benchWriter{eng: eng, embedded: *embedded}
	var rep *benchReport
	if pos[0] == "locomo" {
		rep, err = benchLoCoMo(a, eng, w, pos[1], ms)
	} else {
		rep, err = benchBEIR(a, eng, w, pos[1], ms)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(rep)
	}
	printReport(a, rep)
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
	name string
	req  mneme.RecallRequest // the options; query, project and k are set per question
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
			return nil, mneme.Invalid("mode %q is not one of lexical, vector, hybrid, hybrid+expand", name)
		}
		if !vectors && r.Mode != mneme.Lexical {
			return nil, mneme.Invalid("mode %s needs an embedder: drop --embedder none, or measure --modes lexical", name)
		}
		out = append(out, benchMode{name, r})
	}
	return out, nil
}

// recallIDs runs one recall through the Engine, as the CLI does, and
// returns the hits' record ids (expanded records right after their hit) and
// the time it took.
func recallIDs(a *app, eng *mneme.Engine, m benchMode, text, project string, k int) ([]string, time.Duration, error) {
	req := m.req
	req.Query, req.Project, req.K = text, project, k
	q, err := req.ToQuery(time.Now(), mneme.Internal)
	if mneme.ErrorCode(err) == mneme.EINVALID { // a question of punctuation retrieves nothing
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
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

func benchLoCoMo(a *app, eng *mneme.Engine, w *benchWriter, path string, modes []benchMode) (*benchReport, error) {
	convs, err := eval.LoadLoCoMo(path)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	rep := &benchReport{Dataset: "locomo"}
	owner := map[string][]string{}
	t0 := time.Now()
	for _, c := range convs {
		recs := make([]*mneme.Record, len(c.Turns))
		for i, t := range c.Turns {
			meta, _ := json.Marshal(map[string]string{"dia_id": t.DiaID})
			recs[i] = &mneme.Record{Project: c.ID, Type: mneme.Episodic, Kind: "turn", Text: t.Text, Speaker: t.Speaker,
				SessionID: fmt.Sprintf("%s/session_%d", c.ID, t.Session), OccurredAt: &t.Date, Meta: meta}
		}
		if err := w.remember(a, recs); err != nil {
			return nil, err
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
			return nil, err
		}
		rep.Modes = append(rep.Modes, r)
	}
	return rep, nil
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

func benchBEIR(a *app, eng *mneme.Engine, w *benchWriter, dir string, modes []benchMode) (*benchReport, error) {
	b, err := eval.LoadBEIR(dir)
	if err != nil {
		return nil, mneme.Invalid("%v", err)
	}
	rep := &benchReport{Dataset: "beir"}
	owner := map[string][]string{}
	t0 := time.Now()
	for start := 0; start < len(b.Docs); start += 1000 {
		docs := b.Docs[start:min(start+1000, len(b.Docs))]
		recs := make([]*mneme.Record, 0, len(docs))
		kept := make([]eval.Doc, 0, len(docs))
		for _, d := range docs {
			text := d.Text
			if mneme.ValidateText(text) != nil {
				text = d.Title // a few documents have only a title
			}
			if mneme.ValidateText(text) != nil {
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
			hits, took, err := recallIDs(a, eng, m, b.Queries[qid], "beir", 100)
			if err != nil {
				return nil, err
			}
			lat = append(lat, took)
			docs := expand(hits, owner)
			sums["all"]["n"]++
			sums["all"]["ndcg@10"] += eval.NDCGAt(docs, b.Qrels[qid], 10)
			sums["all"]["recall@100"] += eval.RecallRelevantAt(docs, b.Qrels[qid], 100)
		}
		rep.Modes = append(rep.Modes, finish(m.name, sums, lat))
	}
	return rep, nil
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
}
