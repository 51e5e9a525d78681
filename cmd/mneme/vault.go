package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/vault"
)

const (
	vaultExportUsage = "vault export DIR [--project P] [--type T] [--kind K] [--tags T] [--status S] [--clearance C]"
	vaultImportUsage = "vault import DIR [--project P] [--sync]"
)

func init() {
	commands["vault"] = command{usage: "vault export|import DIR [flags]",
		summary: "keep memories as a folder of Markdown notes (an Obsidian vault, a git repository): `vault export` writes it, `vault import` reads edits back", run: func(a *app, args []string) error { return a.runGroup("vault", []string{"export", "import"}, args) }}
	subcommands["vault export"] = command{usage: vaultExportUsage,
		summary: "write the memories as Markdown files grouped by project, type and kind, with YAML front matter, [[wikilinks]] and manifest.json; only changed files are written", run: runVaultExport}
	subcommands["vault import"] = command{usage: vaultImportUsage,
		summary: "read a vault folder back: edited files update their records, new files become records; files deleted from the vault are forgotten only with --sync", run: runVaultImport}
}

func runVaultExport(a *app, args []string) error {
	fs := a.flags()
	var ff filterFlags
	fs.StringVar(&ff.project, "project", "", "only this project")
	fs.Var(&ff.types, "type", "only this type: episodic, semantic or procedural (repeatable)")
	fs.Var(&ff.kinds, "kind", "only this kind, like note or decision (repeatable)")
	fs.Var(&ff.tags, "tags", "only records with any of these tags (comma list)")
	fs.Var(&ff.statuses, "status", "only records with any of these statuses")
	fs.StringVar(&ff.clearance, "clearance", "internal", "highest sensitivity to export: public, internal or secret (secret records only with secret)")
	dir, err := a.oneDir(fs, args)
	if err != nil {
		return err
	}
	f, err := ff.filter(time.Now())
	if err != nil {
		return err
	}
	f.IncludeSuperseded, f.IncludeExpired = true, true
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := vault.Export(a.ctx, eng, dir, f)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "exported %s to %s: %d written, %d unchanged, %d removed\n",
		mneme.Plural(res.Records, "record", "records"), dir, res.Written, res.Unchanged, res.Removed)
	for _, p := range res.Kept {
		fmt.Fprintf(a.stdout, "kept %s: its record is no longer exported but the file was edited since the last export\n", p)
	}
	return nil
}

func runVaultImport(a *app, args []string) error {
	fs := a.flags()
	project := fs.String("project", "", "project of notes whose front matter names none (default: default)")
	sync := fs.Bool("sync", false, "forget the records whose files were deleted from the vault")
	redact := fs.Bool("redact", false, "mask credentials found in a note instead of refusing it")
	a.embedderFlag(fs)
	dir, err := a.oneDir(fs, args)
	if err != nil {
		return err
	}
	eng, err := a.open(config.Writes)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := vault.Import(a.ctx, eng, dir, vault.ImportOptions{Project: *project, Sync: *sync, Write: mneme.WriteOptions{Redact: *redact}})
	if err != nil {
		return err
	}
	a.notePending(mneme.WriteResult{PendingEmbeddings: res.PendingEmbeddings, PendingReason: res.PendingReason})
	if a.json {
		return a.printJSON(res)
	}
	fmt.Fprintf(a.stdout, "read %s: %d inserted, %d updated, %d unchanged", mneme.Plural(res.Files, "file", "files"), res.Inserted, res.Updated, res.Unchanged)
	switch {
	case *sync:
		fmt.Fprintf(a.stdout, "; %s forgotten\n", mneme.Plural(res.Forgotten, "deleted file", "deleted files"))
	case res.Deleted > 0:
		fmt.Fprintf(a.stdout, "; %s deleted from the vault, kept (--sync forgets them)\n", mneme.Plural(res.Deleted, "file", "files"))
	default:
		fmt.Fprintln(a.stdout)
	}
	return nil
}

// oneDir parses the flags of a command that takes one folder.
func (a *app) oneDir(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := a.parse(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", mneme.Invalid("%s takes one folder", a.name)
	}
	return pos[0], nil
}
