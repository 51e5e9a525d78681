package main

import (
	"bufio"
	"encoding/json"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
)

func init() {
	commands["export"] = command{usage: "export [--project P] [--meta K=V] [--vectors] > FILE.jsonl",
		summary: "write every memory as one JSON object per line, with the ingest document registry (and, with --vectors, the stored vectors)", run: runExport}
}

func runExport(a *app, args []string) error {
	fs := a.flags()
	project := fs.String("project", "", "only this project")
	clearance := fs.String("clearance", "internal", "highest sensitivity to export: public, internal or secret")
	var meta metaFlag
	fs.Var(&meta, "meta", metaUsage)
	vectors := fs.Bool("vectors", false, "also write the stored vectors and the embedder they come from, so an import with that embedder need not embed again")
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	f := mneme.Filter{Project: *project, Meta: meta, Clearance: mneme.Sensitivity(*clearance), IncludeSuperseded: true, IncludeExpired: true}
	if err := f.Check(); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	w := bufio.NewWriter(a.stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var ids []string             // exported records that may have a vector
	parents := map[string]bool{} // documents of exported chunks
	err = eng.Each(a.ctx, f, func(r *mneme.Record) error {
		if r.Sensitivity != mneme.Secret {
			ids = append(ids, r.ID)
		}
		if r.Source != nil && r.Source.Parent != "" {
			parents[r.Source.Parent] = true
		}
		return enc.Encode(r)
	})
	if err == nil {
		err = exportExtras(a, eng, enc, parents, ids, *vectors)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// exportExtras writes the documents of the exported chunks (a document
// whose chunks were not exported, secret or another project's, is not
// named) and, with vectors, the home embedder and each exported record's
// vector.
func exportExtras(a *app, eng *mneme.Engine, enc *json.Encoder, parents map[string]bool, ids []string, vectors bool) error {
	cp, ok := eng.Store().(mneme.Copier)
	if !ok {
		return nil
	}
	docs, err := cp.AllDocuments(a.ctx)
	if err != nil {
		return err
	}
	for i := range docs {
		if parents[docs[i].ID] {
			if err := enc.Encode(mneme.ExportLine{Document: &docs[i]}); err != nil {
				return err
			}
		}
	}
	info, has, err := eng.Store().HomeEmbedder(a.ctx)
	if err != nil || !vectors || !has {
		return err
	}
	if err := enc.Encode(mneme.ExportLine{Embedder: &info}); err != nil {
		return err
	}
	for i := 0; i < len(ids); i += 1000 {
		page := ids[i:min(i+1000, len(ids))]
		vecs, err := cp.Vectors(a.ctx, page)
		if err != nil {
			return err
		}
		for _, id := range page {
			if v, ok := vecs[id]; ok {
				if err := enc.Encode(mneme.ExportLine{Vector: &mneme.VectorLine{ID: id, F32: mneme.EncodeVectorLine(v)}}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
