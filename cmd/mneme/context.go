package main

import (
	"cmp"
	"flag"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
	"github.com/mneme-ai/mneme/evidence"
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
	var qf queryFlags
	qf.register(fs, "recall's k: the package is assembled from max(4k, 50) hits",
		"add a content-free quality report (stage times, lane counts, score spread, compression, reason codes)",
		"read one JSON request per line from FILE; print one package per line")
	a.embedderFlag(fs)
	budget := fs.Int("budget", contextpack.DefaultBudget, fmt.Sprintf("token budget (cl100k_base tokens), %d to %d", contextpack.MinBudget, contextpack.MaxBudget))
	qf.fieldFlag("budget")
	reusable := fs.Int("reusable", 0, fmt.Sprintf("add up to N validated or published memories in a block of their own, with a quarter of the budget (0 to %d)", contextpack.MaxReusable))
	qf.fieldFlag("reusable")
	ev := evidenceFlags(fs)
	var token flagString
	fs.Var(&token, "verification-token", "return the answer verified for this package with this token (mneme answer put); needs --answer-scope")
	scope := fs.String("answer-scope", "", "provider/model/version of what wrote the verified answer")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if err := ev.check(); err != nil {
		return err
	}
	now := time.Now().UTC()
	clearance, err := mneme.ParseSensitivity(qf.ff.clearance)
	if err != nil {
		return err
	}
	reqs, err := requests(a, &qf, pos, "no query given: mneme context \"what did we decide about the release\" --budget 1500",
		func(query string) (contextpack.Request, error) {
			req := contextpack.Request{RecallRequest: qf.recallRequest(query), Budget: contextpack.Budget(*budget), Reusable: *reusable, VerificationToken: token.value, AnswerScope: *scope}
			return req, cmp.Or(contextpack.CheckBudget(*budget), contextpack.CheckReusable(*reusable))
		})
	if err != nil {
		return err
	}
	queries := make([]mneme.Query, len(reqs))
	budgets := make([]int, len(reqs))
	for i := range reqs {
		reqs[i].Report = reqs[i].Report || qf.report || ev.export
		if queries[i], budgets[i], err = reqs[i].Recall(now, clearance); err != nil {
			return atLine(err, qf.batch != "", i)
		}
	}
	eng, err := a.openToRead(needFor(queries))
	if err != nil {
		return err
	}
	defer eng.Close()
	for i, q := range queries {
		pkg, err := contextpack.AssembleFor(a.ctx, eng, reqs[i], q, budgets[i])
		if err != nil {
			return atLine(err, qf.batch != "", i)
		}
		if ev.export {
			err = a.printJSON(evidence.Of(pkg, ev.t))
		} else {
			err = a.printPackage(reqs[i], pkg)
		}
		if err != nil {
			return err
		}
	}
	return nil
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
	if v := pkg.VerifiedAnswer; v != nil && v.Status == mneme.CacheHit {
		fmt.Fprintf(a.stdout, "\nverified answer (%s, package sha256 %s):\n%s\n", v.Scope, v.PackageSHA256, v.Answer)
	} else if v != nil {
		fmt.Fprintf(a.stderr, "no verified answer for this token, scope %s and package (sha256 %s)\n", v.Scope, v.PackageSHA256)
	}
	fmt.Fprintf(a.stderr, "%s, %d of %d tokens (%s), compression %.2f, %d dropped\n",
		mneme.Plural(len(pkg.Citations), "memory", "memories"), pkg.TokensUsed, pkg.Budget, pkg.Tokenizer, pkg.CompressionRatio, len(pkg.Dropped))
	if pkg.Report != nil {
		fmt.Fprintln(a.stderr, pkg.Report.Line())
	}
	return nil
}

// evidence is --evidence-export and its thresholds.
type evidenceOpts struct {
	export bool
	t      evidence.Thresholds
}

func evidenceFlags(fs *flag.FlagSet) *evidenceOpts {
	e := &evidenceOpts{}
	fs.BoolVar(&e.export, "evidence-export", false, "print only the content-free evidence of the package (hashes, counts, booleans, reason codes, normalised scores) with a use, hold or blocked decision")
	fs.IntVar(&e.t.MinItems, "evidence-min-items", 1, "memories the package must hold to be used (else hold; none: blocked)")
	fs.Float64Var(&e.t.MinScore, "evidence-min-score", 0, "best normalised score, 0 to 1, the package must reach to be used")
	fs.Float64Var(&e.t.MinGroundedness, "evidence-min-groundedness", 0, "groundedness, 0 to 1, to be used (when the report has one)")
	fs.StringVar(&e.t.Degraded, "evidence-degraded", "hold", "the decision when a lane did not run: use, hold or blocked")
	return e
}

func (e *evidenceOpts) check() error {
	if !e.export {
		return nil
	}
	return e.t.Check()
}

// flagString is a string flag that tells "given empty" from "not given".
type flagString struct{ value *string }

func (f *flagString) String() string {
	if f.value == nil {
		return ""
	}
	return "(hidden)"
}

func (f *flagString) Set(s string) error { f.value = &s; return nil }
