package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/importers"
)

func init() {
	commands["import"] = command{usage: "import FILE.jsonl|- | import --from FORMAT FILE|DIR [--project P]",
		summary: "load memories written by export (ids kept; importing twice changes nothing), or another memory tool's (--from)", run: runImport}
}

func runImport(a *app, args []string) error {
	fs := a.flags()
	redact := fs.Bool("redact", false, "mask credentials found in any field of a record instead of refusing")
	require := fs.Bool("require-embedding", false, requireEmbeddingUsage)
	from := fs.String("from", "", "read another tool's memories: "+strings.Join(importers.Names(), ", "))
	project := fs.String("project", "", "with --from: the project of the imported memories (default: default)")
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
		return a.printJSON(total)
	}
	fmt.Fprintf(a.stdout, "imported %s: %d inserted, %d updated, %d unchanged or duplicate\n",
		mneme.Plural(len(batch), "record", "records"), total.Inserted, total.Updated, total.SkippedDuplicates)
	return nil
}
