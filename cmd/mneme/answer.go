package main

import (
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
		summary: "store verified answers: `answer put` checks an answer against its context package and keeps it for callers that prove the same token", run: func(a *app, args []string) error { return a.runGroup("answer", []string{"put"}, args) }}
	subcommands["answer put"] = command{usage: answerUsage,
		summary: "rebuild the context package of a request, check the answer against it (as mneme ground does) and, when every sentence is supported, store it as verified.\n" +
			"FILE holds {\"request\": {context request}, \"answer\", \"verification_token\", \"provider\", \"model\", \"model_version\"}; " +
			"`mneme context … --verification-token T --answer-scope provider/model/version` returns it.",
		run: runAnswerPut}
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
	em, id := ground.EngineEmbedder(eng)
	res, err := ground.PutAnswer(a.ctx, eng, em, id, req, clearance)
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
