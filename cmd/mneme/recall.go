package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["recall"] = command{
		usage:   "recall QUERY [flags] | recall --request FILE.json | recall --batch FILE.jsonl",
		summary: "find the memories that best match a query",
		run:     runRecall,
	}
}

func runRecall(a *app, args []string) error {
	fs := a.flags()
	var ff filterFlags
	ff.register(fs)
	a.embedderFlag(fs)
	k := fs.Int("k", mneme.DefaultK, "number of hits")
	explain := fs.Bool("explain", false, "say why each hit matched")
	report := fs.Bool("report", false, "add a content-free quality report (stage times, lane counts, score spread, reason codes)")
	var o recallOptions
	o.register(fs)
	request := fs.String("request", "", "read one JSON request object from FILE (- for standard input)")
	batch := fs.String("batch", "", "read one JSON request per line from FILE; print one result per line")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	clearance, err := mneme.ParseSensitivity(ff.clearance)
	if err != nil {
		return err
	}
	var reqs []mneme.RecallRequest
	switch {
	case *request != "" && *batch != "", (*request != "" || *batch != "") && len(pos) > 0:
		return mneme.Invalid("give a QUERY, --request or --batch, not several")
	case *request != "":
		reqs, err = a.readRequests(*request, false)
	case *batch != "":
		reqs, err = a.readRequests(*batch, true)
	case len(pos) == 0:
		return mneme.Invalid("no query given: mneme recall \"how do we release\"")
	default:
		if *k <= 0 {
			return mneme.Invalid("--k %d must be at least 1", *k)
		}
		f, err := ff.filter(now)
		if err != nil {
			return err
		}
		reqs = []mneme.RecallRequest{o.request(mneme.RecallRequest{Query: strings.Join(pos, " "), Project: f.Project,
			Types: f.Types, Kinds: f.Kinds, Tags: f.Tags, AllTags: f.AllTags, Since: ff.since, Until: ff.until, K: mneme.Count(*k),
			Explain: *explain, IncludeSuperseded: f.IncludeSuperseded})}
	}
	if err != nil {
		return err
	}
	queries := make([]mneme.Query, len(reqs))
	for i := range reqs {
		reqs[i].Report = reqs[i].Report || *report
		if queries[i], err = reqs[i].ToQuery(now, clearance); err != nil {
			return atLine(err, *batch != "", i)
		}
	}
	vectors, hyde := false, false
	for _, q := range queries {
		vectors = vectors || q.Mode != mneme.Lexical
		hyde = hyde || (q.HyDE && q.Hypothesis == nil)
	}
	need := config.Records
	switch {
	case hyde:
		need = config.Serve
	case vectors:
		need = config.Recall
	}
	eng, err := a.open(need)
	if err != nil {
		return err
	}
	defer eng.Close()
	for i, q := range queries {
		res, err := eng.Recall(a.ctx, q)
		if err != nil {
			return atLine(err, *batch != "", i)
		}
		if err := a.printResult(reqs[i].ID, res); err != nil {
			return err
		}
	}
	return nil
}

func atLine(err error, batch bool, i int) error {
	if !batch {
		return err
	}
	return mneme.Prefix(fmt.Sprintf("line %d", i+1), err)
}

// readRequests reads one request object, or one per non-blank line.
func (a *app) readRequests(path string, batch bool) ([]mneme.RecallRequest, error) {
	data, err := a.readFile(path)
	if err != nil {
		return nil, err
	}
	if !batch {
		var r mneme.RecallRequest
		return []mneme.RecallRequest{r}, mneme.DecodeStrict(data, &r)
	}
	var reqs []mneme.RecallRequest
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 4<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r mneme.RecallRequest
		if err := mneme.DecodeStrict(sc.Bytes(), &r); err != nil {
			return nil, mneme.Prefix(fmt.Sprintf("line %d", line), err)
		}
		reqs = append(reqs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, mneme.Invalid("read %s: %v", path, err)
	}
	return reqs, nil
}

// readFile reads a named file, or standard input for "-".
func (a *app) readFile(path string) ([]byte, error) {
	if path == "-" {
		var buf bytes.Buffer
		_, err := buf.ReadFrom(a.stdin)
		return buf.Bytes(), err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, mneme.Invalid("cannot read %s: %v", path, unwrapPathError(err))
	}
	return data, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func (a *app) printResult(id string, res *mneme.Result) error {
	if res.Hits == nil {
		res.Hits = []mneme.Hit{}
	}
	if res.Degraded {
		a.warn(WDEGRADED, res.DegradedReason)
	}
	if a.json {
		return a.printJSON(mneme.RecallResponse{ID: id, Result: res})
	}
	if len(res.Hits) == 0 {
		fmt.Fprintln(a.stdout, "no memories match")
	}
	for i, h := range res.Hits {
		r := h.Record
		fmt.Fprintf(a.stdout, "%d. [%.2f] %s\n   %s · %s · %s · %s\n", i+1, h.Score, headline(r), r.ID, oneLine(r.Project), oneLine(string(r.Type)), r.EventTime().Format(time.DateOnly))
		if e := h.Explain; e != nil {
			fmt.Fprintf(a.stdout, "   %s\n", explainLine(e))
		}
	}
	if res.Report != nil {
		fmt.Fprintln(a.stdout, res.Report.Line())
	}
	return nil
}

// headline is a record's title, else the start of its text, on one line.
func headline(r *mneme.Record) string {
	s := r.Title
	if s == "" {
		s = r.Text
	}
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > 100 {
		s = string([]rune(s)[:99]) + "…"
	}
	return oneLine(s)
}

// explainLine is the one-line text form of a hit's explanation.
func explainLine(e *mneme.Explain) string {
	if e.Retrieval == "expand" {
		return fmt.Sprintf("expanded: %s %s", oneLine(e.Relation), e.ExpandedFrom)
	}
	parts := []string{fmt.Sprintf("%s: fused %.3f", e.Retrieval, e.FusedScore)}
	if e.LexicalRank > 0 {
		parts = append(parts, fmt.Sprintf("words #%d (bm25 %.3f, matched %s)", e.LexicalRank, e.BM25, oneLine(strings.Join(e.MatchedTerms, ", "))))
	}
	if e.VectorRank > 0 {
		parts = append(parts, fmt.Sprintf("meaning #%d (cosine %.3f)", e.VectorRank, e.VectorScore))
	}
	if e.Recency != nil {
		parts = append(parts, fmt.Sprintf("recency ×%.3f", *e.Recency))
	}
	if r := e.Rerank; r != nil {
		parts = append(parts, fmt.Sprintf("rerank +%.3f", r.Boost))
	}
	if e.MMRSimilarity != nil {
		parts = append(parts, fmt.Sprintf("similarity to earlier hits %.2f", *e.MMRSimilarity))
	}
	return strings.Join(parts, "; ")
}
