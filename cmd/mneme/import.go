package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/hook"
)

func init() {
	commands["import"] = command{usage: "import FILE.jsonl|- | import --from FORMAT FILE|DIR [--project P]",
		summary: "load memories written by export (ids kept; importing twice changes nothing), another memory tool's, or an agent's transcript (--from)", run: runImport}
}

func runImport(a *app, args []string) error {
	fs := a.flags()
	redact := fs.Bool("redact", false, "mask credentials found in any field of a record instead of refusing")
	require := fs.Bool("require-embedding", false, requireEmbeddingUsage)
	from := fs.String("from", "", "read another format: "+strings.Join(fromFormats(), ", ")+" (another memory tool's export, or an agent's session log, mapped as the hooks map it)")
	project := fs.String("project", "", "with --from a memory tool's format: the project of the imported memories (default: default)")
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("import takes one file (or - for standard input)")
	}
	if *from != "" {
		return a.importFrom(*from, pos[0], *project, mneme.WriteOptions{Redact: *redact, RequireEmbedding: *require})
	}
	if *project != "" {
		return mneme.Invalid("--project goes with --from: an export's records name their projects")
	}
	start := time.Now()
	data, err := a.readLines(pos[0])
	if err != nil {
		return err
	}
	batch, lines, extras, err := mneme.DecodeExport(data)
	if err != nil {
		return err
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	// One transaction: every line is checked before the first write, and a
	// failure leaves the store as it was.
	total, err := eng.Import(a.ctx, batch, mneme.WriteOptions{Redact: *redact, RequireEmbedding: *require, Vectors: extras.Vectors})
	var be *mneme.BatchError
	if errors.As(err, &be) {
		return mneme.Prefix(fmt.Sprintf("line %d", lines[be.Index]), be.Err)
	}
	if err == nil {
		err = eng.ImportDocuments(a.ctx, extras.Documents)
	}
	if err != nil {
		return err
	}
	total.ID = ""
	a.notePending(total)
	if a.json {
		return a.printJSON(struct {
			mneme.WriteResult
			rated
		}{total, rateSince(len(batch), start)})
	}
	fmt.Fprintf(a.stdout, "imported %s: %d inserted, %d updated, %d unchanged or duplicate\n",
		mneme.Plural(len(batch), "record", "records"), total.Inserted, total.Updated, total.SkippedDuplicates)
	return nil
}

// importTranscript replays an agent's transcript through the hooks'
// capture core: the same session, prompts, tool calls and summary.
func (a *app) importTranscript(format string, data []byte) error {
	parse, ok := hook.Transcripts[format]
	if !ok {
		return mneme.Invalid("--from %q is not known: use claude-code-transcript or codex-session", mneme.Clip(format))
	}
	evs, err := parse(data)
	if err != nil {
		return mneme.Invalid("%s: %v", format, err)
	}
	c, err := a.config()
	if err != nil {
		return err
	}
	eng, lexical, err := openForHook(a.ctx, c)
	if err != nil {
		return err
	}
	defer eng.Close()
	core := hook.Core{Eng: eng, Home: c.Home, Project: c.File.Hooks.Project, Lexical: lexical, NoContext: true}
	counts := map[hook.Kind]int{}
	for _, ev := range evs {
		if _, err := core.Handle(a.ctx, hook.Adapters[ev.Host], ev); err != nil {
			return err
		}
		counts[ev.Kind]++
	}
	if a.json {
		return a.printJSON(map[string]int{"sessions": counts[hook.Start], "prompts": counts[hook.Prompt], "tool_calls": counts[hook.Tool]})
	}
	fmt.Fprintf(a.stdout, "imported %d sessions: %d prompts, %d tool calls\n", counts[hook.Start], counts[hook.Prompt], counts[hook.Tool])
	return nil
}
