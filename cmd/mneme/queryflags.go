package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

// queryFlags are the flags of the commands that run a recall (recall,
// context): the filters, k, the recall options, --report, and the request
// files that stand instead of a query.
type queryFlags struct {
	ff             filterFlags
	o              recallOptions
	k              int
	report         bool
	request, batch string

	fs     *flag.FlagSet
	fields map[string]bool // the flags that state a request's field, which a request file states itself
}

func (q *queryFlags) register(fs *flag.FlagSet, kUsage, reportUsage, batchUsage string) {
	q.fs, q.fields = fs, map[string]bool{}
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	q.ff.register(fs)
	fs.IntVar(&q.k, "k", mneme.DefaultK, kUsage)
	q.o.register(fs)
	fs.VisitAll(func(f *flag.Flag) { q.fields[f.Name] = !before[f.Name] && f.Name != "clearance" })
	fs.BoolVar(&q.report, "report", false, reportUsage)
	fs.StringVar(&q.request, "request", "", "read one JSON request object from FILE (- for standard input)")
	fs.StringVar(&q.batch, "batch", "", batchUsage)
}

// fieldFlag registers name as a flag that states a request's field.
func (q *queryFlags) fieldFlag(name string) { q.fields[name] = true }

// fileConflict refuses a flag that states a request's field beside a
// request file: the file states its fields itself, and the flag would
// otherwise be silently ignored.
func (q *queryFlags) fileConflict() error {
	file := cmp.Or(q.request, q.batch)
	if file == "" {
		return nil
	}
	var named []string
	q.fs.Visit(func(f *flag.Flag) {
		if q.fields[f.Name] {
			named = append(named, "--"+f.Name)
		}
	})
	if len(named) == 0 {
		return nil
	}
	return mneme.Invalid("%s cannot go with a request file: put %s in the request instead (only --report and --clearance apply to the requests of a file)",
		strings.Join(named, ", "), fieldNames(named))
}

// fieldNames names the JSON fields of flags, like "mode" for --mode.
func fieldNames(flags []string) string {
	out := make([]string, len(flags))
	for i, f := range flags {
		out[i] = fmt.Sprintf("%q", strings.ReplaceAll(strings.TrimPrefix(f, "--"), "-", "_"))
	}
	return strings.Join(out, ", ")
}

// recallRequest is the recall the flags describe for query.
func (q *queryFlags) recallRequest(query string) mneme.RecallRequest {
	ff := &q.ff
	var types []mneme.Type
	for _, t := range ff.types {
		types = append(types, mneme.Type(t))
	}
	return q.o.request(mneme.RecallRequest{Query: query, Project: ff.project, Types: types, Kinds: ff.kinds,
		Tags: ff.tags, AllTags: ff.allTags, Meta: mneme.MetaFilter(ff.meta), Statuses: ff.statusList(), Since: ff.since, Until: ff.until, Session: ff.session, Run: ff.run, K: mneme.Count(q.k),
		IncludeSuperseded: ff.superseded})
}

// requests are the requests to run: the one in --request, one per line of
// --batch, or the one build makes of the query in pos (noQuery says what
// to write when there is none).
func requests[T any](a *app, q *queryFlags, pos []string, noQuery string, build func(query string) (T, error)) ([]T, error) {
	if err := q.fileConflict(); err != nil {
		return nil, err
	}
	switch {
	case q.request != "" && q.batch != "", (q.request != "" || q.batch != "") && len(pos) > 0:
		return nil, mneme.Invalid("give a QUERY, --request or --batch, not several")
	case q.request != "":
		return readJSON[T](a, q.request, false)
	case q.batch != "":
		return readJSON[T](a, q.batch, true)
	case len(pos) == 0:
		return nil, mneme.Invalid("%s", noQuery)
	case q.k <= 0:
		return nil, mneme.Invalid("--k %d must be at least 1", q.k)
	}
	r, err := build(strings.Join(pos, " "))
	return []T{r}, err
}

// readJSON reads one request object, or one per non-blank line.
func readJSON[T any](a *app, path string, batch bool) ([]T, error) {
	read := a.readInput
	if batch {
		read = a.readLines
	}
	data, err := read(path)
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
	sc.Buffer(nil, maxInputBytes+1)
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

// atLine names the line of a batch an error is about.
func atLine(err error, batch bool, i int) error {
	if !batch {
		return err
	}
	return mneme.Prefix(fmt.Sprintf("line %d", i+1), err)
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
