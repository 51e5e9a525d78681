package main

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["embed"] = command{
		usage:   "embed TEXT | embed --batch FILE",
		summary: "print the embedding of a text (or of each line of FILE) with the provider's name",
		run:     runEmbed,
	}
}

type embedOutput struct {
	mneme.EmbedderInfo
	Vector []float32 `json:"vector"`
}

func runEmbed(a *app, args []string) error {
	fs := a.flags()
	a.embedderFlag(fs)
	batch := fs.String("batch", "", "embed each line of FILE (- for standard input); print one JSON line per text, in order")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	var texts []string
	switch {
	case *batch != "" && len(pos) > 0:
		return mneme.Invalid("give TEXT or --batch, not both")
	case *batch != "":
		data, err := a.readLines(*batch)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, maxInputBytes+1)
		for line := 1; sc.Scan(); line++ {
			if err := mneme.ValidateText(sc.Text()); err != nil {
				return mneme.Prefix(fmt.Sprintf("line %d", line), err)
			}
			texts = append(texts, sc.Text())
		}
		if err := sc.Err(); err != nil {
			return mneme.Invalid("read %s: %v", *batch, err)
		}
	case len(pos) > 0:
		texts = []string{strings.Join(pos, " ")}
	default:
		return mneme.Invalid("no text given: mneme embed \"some text\"")
	}
	for _, t := range texts {
		if err := mneme.ValidateText(t); err != nil {
			return err
		}
	}
	eng, err := a.open(config.Embedding)
	if err != nil {
		return err
	}
	defer eng.Close()
	vecs, err := eng.Embed(a.ctx, texts)
	if err != nil {
		return err
	}
	info := eng.Embedder().Info()
	for _, v := range vecs {
		if a.json {
			if err := a.printJSON(embedOutput{EmbedderInfo: info, Vector: v}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(a.stdout, "%s %s dim %d: %v\n", info.ID(), info.Version, info.Dim, v[:min(8, len(v))])
	}
	return nil
}
