package main

import (
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/consolidate"
)

func init() {
	commands["summarize"] = command{
		usage:   "summarize --since TIME --until TIME [--project P] [--type episodic|semantic|procedural] [--tags T] [--kind K] [--strategy auto|extractive|abstractive] [--provider P] [--model M] [--max-words 250] [--limit 50]",
		summary: "consolidate a window of episodic memories into one semantic summary that links to them",
		run:     runSummarize,
	}
}

func runSummarize(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	var req consolidate.Request
	var tags, kinds listFlag
	var strategy, typ string
	fs.StringVar(&req.Project, "project", "", "summarize this project's records (default: default)")
	fs.StringVar(&req.Since, "since", "", "start of the window (RFC 3339, a date, an age like 7d, or now)")
	fs.StringVar(&req.Until, "until", "", "end of the window, inclusive")
	fs.Var(&tags, "tags", "only records with any of these tags (comma list)")
	fs.StringVar(&req.Session, "session", "", "only this session's records: the session's summary")
	fs.Var(&kinds, "kind", "only records of this kind, like turn or handoff (repeatable)")
	fs.StringVar(&strategy, "strategy", "", "extractive (the default, unless --provider or --model names a model: sentences copied from the records), abstractive (the configured LLM) or auto (the LLM when it answers)")
	fs.StringVar(&typ, "type", "", "the memory type summarized: episodic (default), semantic or procedural")
	fs.StringVar(&req.Provider, "provider", "", "the language model's provider for this summary: the configured one (llm.provider)")
	fs.StringVar(&req.Model, "model", "", "the language model for this summary: llm.model or one of llm.models in config.json (implies --strategy abstractive)")
	maxWords := fs.Int("max-words", consolidate.DefaultMaxWords, "length of the summary in words, at most")
	limit := fs.Int("limit", consolidate.DefaultLimit, "records summarized at most, oldest first")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	req.Tags, req.Kinds, req.Strategy, req.Type = tags, kinds, consolidate.Strategy(strategy), mneme.Type(typ)
	req.MaxWords, req.Limit = consolidate.MaxWords(*maxWords), consolidate.Limit(*limit)
	for _, err := range []error{consolidate.CheckCount("max_words", *maxWords, consolidate.MaxMaxWords, consolidate.DefaultMaxWords),
		consolidate.CheckCount("limit", *limit, consolidate.MaxLimit, consolidate.DefaultLimit), req.Check(time.Now())} {
		if err != nil {
			return err
		}
	}
	need := config.Writes
	if req.Strategy == consolidate.Auto || req.Strategy == consolidate.Abstractive || req.Provider != "" || req.Model != "" {
		need = config.Serve // and the language model, when one is configured
	}
	eng, err := a.open(need)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := consolidate.Summarize(a.ctx, eng, req)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	printSummary(a, res)
	return nil
}

func printSummary(a *app, res *consolidate.Response) {
	fmt.Fprintln(a.stdout, res.Summary)
	state := "stored"
	switch {
	case !res.Created:
		state = "already stored, unchanged"
	case res.Supersedes != "":
		state = "stored, superseding " + res.Supersedes
	}
	by := string(res.Strategy)
	if res.Provider != "" {
		by += fmt.Sprintf(" by %s/%s (%s)", res.Provider, res.Model, res.PromptVersion)
	}
	fmt.Fprintf(a.stdout, "\nsummary %s: %s; %s, %s, from %s\n", res.RecordID, state, by, mneme.Plural(res.Words, "word", "words"), mneme.Plural(len(res.SourceIDs), "record", "records"))
	if res.FallbackReason != "" {
		fmt.Fprintf(a.stdout, "extractive because %s\n", res.FallbackReason)
	}
	if res.Truncated {
		fmt.Fprintf(a.stdout, "the window holds more than %d records: summarize the rest with a later --since\n", res.UsedFilters.Limit)
	}
}
