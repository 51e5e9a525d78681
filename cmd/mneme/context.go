package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/contextpack"
)

func init() {
	commands["context"] = command{
		usage:   "context QUERY [--budget TOKENS] [flags] | context --request FILE.json | context --batch FILE.jsonl",
		summary: "build a prompt-ready context package for a query, fitted to a token budget, with citations",
		run:     runContext,
	}
}

func runContext(a *app, args []string) error {
	fs := a.flags()
	var ff filterFlags
	ff.register(fs)
	a.embedderFlag(fs)
	k := fs.Int("k", mneme.DefaultK, "recall's k: the package is assembled from max(4k, 50) hits")
	budget := fs.Int("budget", contextpack.DefaultBudget, fmt.Sprintf("token budget (cl100k_base tokens), %d to %d", contextpack.MinBudget, contextpack.MaxBudget))
	report := fs.Bool("report", false, "add a content-free quality report (stage times, lane counts, score spread, compression, reason codes)")
	var o recallOptions
	o.register(fs)
	request := fs.String("request", "", "read one JSON request object from FILE (- for standard input)")
	batch := fs.String("batch", "", "read one JSON request per line from FILE; print one package per line")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	clearance, err := mneme.ParseSensitivity(ff.clearance)
	if err != nil {
		return err
	}
	var reqs []contextpack.Request
	switch {
	case *request != "" && *batch != "", (*request != "" || *batch != "") && len(pos) > 0:
		return mneme.Invalid("give a QUERY, --request or --batch, not several")
	case *request != "":
		reqs, err = readJSON[contextpack.Request](a, *request, false)
	case *batch != "":
		reqs, err = readJSON[contextpack.Request](a, *batch, true)
	case len(pos) == 0:
		return mneme.Invalid("no query given: mneme context \"what did we decide about the release\" --budget 1500")
	default:
		if *k <= 0 {
			return mneme.Invalid("--k %d must be at least 1", *k)
		}
		if err := contextpack.CheckBudget(*budget); err != nil {
			return err
		}
		reqs = []contextpack.Request{{RecallRequest: o.request(mneme.RecallRequest{Query: strings.Join(pos, " "), Project: ff.project,
			Types: types(ff.types), Kinds: ff.kinds, Tags: ff.tags, AllTags: ff.allTags, Since: ff.since, Until: ff.until,
			K: mneme.Count(*k), IncludeSuperseded: ff.superseded}), Budget: contextpack.Budget(*budget)}}
	}
	if err != nil {
		return err
	}
	queries := make([]mneme.Query, len(reqs))
	budgets := make([]int, len(reqs))
	for i := range reqs {
		reqs[i].Report = reqs[i].Report || *report
		if queries[i], budgets[i], err = reqs[i].Recall(now, clearance); err != nil {
			return atLine(err, *batch != "", i)
		}
	}
	eng, err := a.open(needFor(queries))
	if err != nil {
		return err
	}
	defer eng.Close()
	for i, q := range queries {
		pkg, err := contextpack.Assemble(a.ctx, eng, q, budgets[i])
		if err != nil {
			return atLine(err, *batch != "", i)
		}
		if err := a.printPackage(reqs[i], pkg); err != nil {
			return err
		}
	}
	return nil
}

func types(ts []string) []mneme.Type {
	var out []mneme.Type
	for _, t := range ts {
		out = append(out, mneme.Type(t))
	}
	return out
}

// needFor is what opening the home must provide for queries: the
// embedder when one embeds, the language model when one asks for a
// generated hypothesis.
func needFor(queries []mneme.Query) config.Need {
	vectors, hyde := false, false
	for _, q := range queries {
		vectors = vectors || q.Mode != mneme.Lexical
		hyde = hyde || (q.HyDE && q.Hypothesis == nil)
	}
	switch {
	case hyde:
		return config.Serve
	case vectors:
		return config.Recall
	}
	return config.Records
}

func (a *app) printPackage(req contextpack.Request, pkg *contextpack.Package) error {
	if a.json {
		return a.printJSON(contextpack.Response{ID: req.ID, Package: pkg})
	}
	if pkg.Degraded {
		fmt.Fprintln(a.stderr, "note:", pkg.DegradedReason)
	}
	if len(pkg.Citations) == 0 {
		fmt.Fprintln(a.stdout, "no memories match")
		if pkg.Report != nil {
			fmt.Fprintln(a.stderr, pkg.Report.Line())
		}
		return nil
	}
	fmt.Fprintln(a.stdout, pkg.Text)
	fmt.Fprintf(a.stderr, "%d memories, %d of %d tokens (%s), compression %.2f, %d dropped\n",
		len(pkg.Citations), pkg.TokensUsed, pkg.Budget, pkg.Tokenizer, pkg.CompressionRatio, len(pkg.Dropped))
	if pkg.Report != nil {
		fmt.Fprintln(a.stderr, pkg.Report.Line())
	}
	return nil
}

// readJSON reads one request object, or one per non-blank line.
func readJSON[T any](a *app, path string, batch bool) ([]T, error) {
	data, err := a.readFile(path)
	if err != nil {
		return nil, err
	}
	if !batch {
		var r T
		err := mneme.DecodeStrict(data, &r)
		return []T{r}, err
	}
	var reqs []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 4<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r T
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
