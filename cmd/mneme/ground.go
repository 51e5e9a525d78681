package main

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/ground"
)

func init() {
	commands["ground"] = command{
		usage:   "ground --package FILE|- --answer TEXT|- [--report] [--json]",
		summary: "check that each sentence of an answer is supported by a context package (mneme context --json)",
		run:     runGround,
	}
}

func runGround(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	pkgPath := fs.String("package", "", "the context package, as \"mneme context --json\" printed it (- for standard input)")
	answer := fs.String("answer", "", "the answer to check (- for standard input)")
	report := fs.Bool("report", false, "add a content-free quality report (stage times, counts, score spread, groundedness, reason codes)")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *pkgPath == "":
		return mneme.Invalid("no package given: mneme ground --package pkg.json --answer \"…\"")
	case *pkgPath == "-" && *answer == "-":
		return mneme.Invalid("--package and --answer cannot both read standard input: put one in a file")
	}
	text := *answer
	if text == "-" {
		data, err := a.readInput("-")
		if err != nil {
			return err
		}
		text = string(data)
	}
	data, err := a.readInput(*pkgPath)
	if err != nil {
		return err
	}
	var pkg contextpack.Response
	if err := mneme.DecodeStrict(data, &pkg); err != nil {
		return mneme.Prefix("--package", err)
	}
	if pkg.Package == nil {
		return mneme.Invalid("--package: not a context package")
	}
	eng, err := a.openToRead(config.Recall)
	if err != nil {
		return err
	}
	defer eng.Close()
	em, id := ground.EngineEmbedder(eng)
	res, err := ground.Check(a.ctx, em, id, ground.Request{Package: pkg.Package, Answer: text, Report: *report})
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	verdict := "supported"
	if !res.Supported {
		verdict = "NOT supported"
	}
	fmt.Fprintf(a.stdout, "%s (score %.2f, threshold %.2f)", verdict, res.Score, res.Threshold)
	if len(res.Reasons) > 0 {
		fmt.Fprintf(a.stdout, ": %s", strings.Join(res.Reasons, ", "))
	}
	fmt.Fprintln(a.stdout)
	for i, s := range res.Sentences {
		var cites []string
		for _, sp := range s.Support {
			cites = append(cites, fmt.Sprintf("[%d]", sp.N))
		}
		fmt.Fprintf(a.stdout, "%d. %.2f %s %s\n", i+1, s.Score, map[bool]string{true: "ok ", false: "NO "}[s.Supported], strings.Join(cites, ""))
		if len(s.MissingNumbers)+len(s.MissingNames)+len(s.MissingTerms) > 0 {
			fmt.Fprintf(a.stdout, "   not in evidence: %s\n", strings.Join(append(append(s.MissingNumbers, s.MissingNames...), s.MissingTerms...), ", "))
		}
	}
	if res.Report != nil {
		fmt.Fprintln(a.stdout, res.Report.Line())
	}
	return nil
}
