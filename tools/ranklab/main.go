// Command ranklab replays package rank over the candidates of a benchmark,
// so that a ranking profile is measured in a second instead of a bench
// run. It calls the same functions the Engine does (fusion, boosts, the
// evidence hold-back), so on LoCoMo (whose turns are too short to lend
// feedback words) it reproduces `mneme bench locomo --modes hybrid`.
//
// Dump a kept bench home once (the store's candidates of every question):
//
//	mneme bench locomo ../shared/bench/locomo-dev.json --keep --modes hybrid
//	go run ./tools/ranklab dump -home DIR -data ../shared/bench/locomo-dev.json -out /tmp/locomo.gob
//
// then measure, for instance leaving one conversation out at a time:
//
//	go run ./tools/ranklab loco /tmp/locomo.gob
//
// To look at the misses: `miss DUMP 1,3` (where each evidence turn ranks,
// its lanes, its distance to a top-10 hit), `top DUMP CAT N` (the top 10
// of N missed questions with each hit's score parts). Experiments kept
// with their figures in docs/performance.md ("What did not help"): `nbr`
// (neighbour turns), `sim` (session diversity, MMR, rerank features),
// `shape` (a profile for questions asking for several things), `pool`
// (smaller candidate pools of a dump made with -k 300), and, on a
// dump made with -vectors, `prf` (vector feedback) and `ctx` (a turn's
// vector with its neighbours'), and `alone DUMP VECDUMP HOME DATA MIX…` (a
// second vector per turn, of its text alone); dump -names drop|half takes
// the speakers' names out of the lexical query.
//
// Session 36 (docs/performance.md, "LoCoMo dev, session 36"): `why DUMP
// CATS` counts why the evidence of the given categories is missed (rank
// buckets per lane, words shared with the question, the sessions spanned),
// `feat` and `traits` compare the top-10 hits that are not evidence with
// the evidence ranked 11-50, `forms` splits R@10 by question form, `exp
// DUMP RULE=V,...` measures per-question rules (see rules in exp.go) with
// each conversation left out, `sent VECDUMP HOME DATA W...` a vector per
// sentence, and `qname VECDUMP HOME REPL[/POSS]:W[+FIELD=V]...` the query
// embedded with the speakers' names replaced (NOPREFIX=DATA: the turns
// embedded without their "<speaker>: ").
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: ranklab dump|eval|loco ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "dump":
		err = dump(os.Args[2:])
	case "eval":
		err = evalCmd(os.Args[2:])
	case "diff":
		err = diff(os.Args[2:])
	case "sent":
		err = sent(os.Args[2:])
	case "feat":
		err = feat(os.Args[2:])
	case "exp":
		err = exp(os.Args[2:])
	case "forms":
		err = forms(os.Args[2:])
	case "traits":
		err = traits(os.Args[2:])
	case "qname":
		err = qname(os.Args[2:])
	case "why":
		err = why(os.Args[2:])
	case "miss":
		err = miss(os.Args[2:])
	case "nbr":
		err = nbr(os.Args[2:])
	case "sim":
		err = sim(os.Args[2:])
	case "top":
		err = top(os.Args[2:])
	case "shape":
		err = shapeEval(os.Args[2:])
	case "prf":
		err = prf(os.Args[2:])
	case "ctx":
		err = ctxvec(os.Args[2:])
	case "pool":
		err = pool(os.Args[2:])
	case "alone":
		err = alone(os.Args[2:])
	case "loco":
		err = loco(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
