package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/ground"
)

const answerUsage = "answer put --request FILE|-"

func init() {
	commands["answer"] = command{usage: answerUsage,
		summary: "store verified answers: `answer put` checks an answer against its context package and keeps it for callers that prove the same token", run: runAnswer}
	subcommands["answer put"] = command{usage: answerUsage,
		summary: "rebuild the context package of a request, check the answer against it (as mneme ground does) and, when every sentence is supported, store it as verified.\n" +
			"FILE holds {\"request\": {context request}, \"answer\", \"verification_token\", \"provider\", \"model\", \"model_version\"}; " +
			"`mneme context … --verification-token T --answer-scope provider/model/version` returns it.",
		run: runAnswerPut}
}

func runAnswer(a *app, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "put":
			a.name = "answer put"
			return runAnswerPut(a, args[1:])
		case "-h", "-help", "--help", "help":
			fmt.Fprintf(a.stdout, "Usage: mneme %s\n\n%s\n\nRun `mneme answer put -h` for its flags.\n", answerUsage, commands["answer"].summary)
			return flag.ErrHelp
		}
	}
	a.json = hasJSONFlag(args)
	if len(args) == 0 {
		return mneme.Invalid("a subcommand is needed: put (run `mneme answer put -h` for its flags)")
	}
	return mneme.Invalid("unknown answer subcommand %q: the subcommands are: put", mneme.Clip(args[0]))
}

func runAnswerPut(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	path := fs.String("request", "", "the answer request, JSON (- for standard input)")
	clear := fs.String("clearance", "internal", "the package's clearance, as mneme context's: internal or secret")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return mneme.Invalid("no request given: mneme answer put --request answer.json")
	}
	data, err := a.readInput(*path)
	if err != nil {
		return err
	}
	var req ground.AnswerRequest
	if err := mneme.DecodeStrict(data, &req); err != nil {
		return mneme.Prefix("--request", err)
	}
	clearance, err := mneme.ParseSensitivity(*clear)
	if err != nil {
		return err
	}
	if _, _, _, err := req.Validate(time.Now().UTC(), clearance); err != nil {
		return err
	}
	eng, err := a.open(config.Recall)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := ground.PutAnswer(a.ctx, eng, groundEmbedder(eng), embedderID(eng), req, clearance)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	if res.Stored {
		fmt.Fprintf(a.stdout, "stored the verified answer (sha256 %s) for package sha256 %s, scope %s (score %.2f)\n", res.AnswerSHA256, res.PackageSHA256, res.Scope, res.Score)
		return nil
	}
	fmt.Fprintf(a.stdout, "%s (score %.2f, threshold %.2f", res.Note, res.Score, res.Threshold)
	if len(res.Reasons) > 0 {
		fmt.Fprintf(a.stdout, "; %s", strings.Join(res.Reasons, ", "))
	}
	fmt.Fprintln(a.stdout, ")")
	return nil
}
