package main

import (
	"fmt"
	"sort"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/config"
	"github.com/mneme-ai/mneme/jobs"
)

func init() {
	commands["stats"] = command{usage: "stats", summary: "count memories by project and type", run: runStats}
}

func runStats(a *app, args []string) error {
	fs := a.flags()
	if err := a.parseFlags(fs, args); err != nil {
		return err
	}
	eng, err := a.openToRead(config.Records)
	if err != nil {
		return err
	}
	defer eng.Close()
	all, err := jobs.StatsOf(a.ctx, eng)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(all)
	}
	st := all.Stats
	fmt.Fprintf(a.stdout, "%s (%d superseded, %d expired, %d secret), %s\n",
		mneme.Plural(st.Total, "memory", "memories"), st.Superseded, st.Expired, st.Secret, mneme.Plural(st.Documents, "document", "documents"))
	if st.PendingEmbeddings > 0 || st.EmbedderError != nil {
		fmt.Fprintf(a.stdout, "%s: `mneme sync` embeds them\n", pendingDetail(st))
	}
	for _, vs := range st.Embedders {
		fmt.Fprintln(a.stdout, coverageLine(vs))
	}
	for _, p := range st.Projects {
		types := make([]string, 0, len(p.Types))
		for t := range p.Types {
			types = append(types, t)
		}
		sort.Strings(types)
		fmt.Fprintf(a.stdout, "  %-20s %6d", p.Project, p.Total)
		for _, t := range types {
			fmt.Fprintf(a.stdout, "  %s %d", t, p.Types[t])
		}
		fmt.Fprintln(a.stdout)
	}
	if len(all.LastJobs) > 0 {
		fmt.Fprintln(a.stdout, "last runs (mneme jobs lists them):")
		for _, e := range all.LastJobs {
			fmt.Fprintf(a.stdout, "  %s\n", jobLine(e))
		}
	}
	return nil
}

// coverageLine says how many of the records that may have a vector have
// one from an embedder, and whether recall uses it.
func coverageLine(vs mneme.VectorSet) string {
	role := "kept beside"
	if vs.Home {
		role = "in use"
	}
	pct := 100.0
	if vs.Embeddable > 0 {
		pct = 100 * float64(vs.Vectors) / float64(vs.Embeddable)
	}
	return fmt.Sprintf("embedder %s (%d dimensions, %s): %d of %d memories embedded (%.0f%%)", vs.Embedder.ID(), vs.Embedder.Dim, role, vs.Vectors, vs.Embeddable, pct)
}
