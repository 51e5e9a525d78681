package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"

	"github.com/mneme-ai/mneme"
)

func init() {
	commands["import"] = command{usage: "import FILE.jsonl|-", summary: "load memories written by export (ids kept; importing twice changes nothing)", run: runImport}
}

func runImport(a *app, args []string) error {
	fs := a.flags()
	redact := fs.Bool("redact", false, "mask credentials found in texts instead of refusing")
	a.embedderFlag(fs)
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return mneme.Invalid("import takes one file (or - for standard input)")
	}
	data, err := a.readFile(pos[0])
	if err != nil {
		return err
	}
	recs, err := decodeRecords(data)
	if err != nil {
		return err
	}
	eng, err := a.openWithEmbedder()
	if err != nil {
		return err
	}
	defer eng.Close()
	if !a.json && isTerminal(a.stderr) {
		eng.SetEmbedProgress(progressBar(a, "embed", "records"))
	}
	batch := make([]*mneme.Record, len(recs))
	for i, r := range recs {
		batch[i] = r.rec
	}
	// One transaction: every line is checked before the first write, and a
	// failure leaves the store as it was.
	total, err := eng.Import(a.ctx, batch, mneme.WriteOptions{Redact: *redact})
	var be *mneme.BatchError
	if errors.As(err, &be) {
		return mneme.Invalid("line %d: %s", recs[be.Index].line, mneme.ErrorMessage(be.Err))
	}
	if err != nil {
		return err
	}
	total.ID = ""
	if a.json {
		return a.printJSON(total)
	}
	fmt.Fprintf(a.stdout, "imported %d records: %d inserted, %d updated, %d unchanged or duplicate\n",
		len(recs), total.Inserted, total.Updated, total.SkippedDuplicates)
	return nil
}

type lineRecord struct {
	line int
	rec  *mneme.Record
}

// decodeRecords reads one record per non-blank line, strictly.
func decodeRecords(data []byte) ([]lineRecord, error) {
	var out []lineRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 2*mneme.MaxTextBytes+mneme.MaxMetaBytes+64<<10)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		r := new(mneme.Record)
		if err := mneme.DecodeStrict(sc.Bytes(), r); err != nil {
			return nil, mneme.Invalid("line %d: %s", line, mneme.ErrorMessage(err))
		}
		out = append(out, lineRecord{line, r})
	}
	if err := sc.Err(); err != nil {
		return nil, mneme.Invalid("line %d: %v (a line holds at most one record of up to 1 MiB of text)", len(out)+1, err)
	}
	if len(out) == 0 {
		return nil, mneme.Invalid("the file holds no records: write one JSON record per line")
	}
	return out, nil
}
