package sqlite_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/sqlite"
)

// Using mneme as a library: open the embedded store, remember, recall.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "mneme-example")
	defer os.RemoveAll(dir)

	store, err := sqlite.Open(ctx, dir)
	if err != nil {
		log.Fatal(err)
	}
	eng := mneme.NewEngine(store)
	defer eng.Close()

	_, err = eng.Remember(ctx, []*mneme.Record{
		{Text: "We release by pushing a v* tag", Type: mneme.Procedural, Tags: []string{"release"}},
		{Text: "The staging database is PostgreSQL 17", Key: "staging-db"},
	}, mneme.WriteOptions{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Recall(ctx, mneme.Query{Text: "how do we release", K: 5})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range res.Hits {
		fmt.Printf("%.2f %s\n", h.Score, h.Record.Text)
	}
	// Output: 1.00 We release by pushing a v* tag
}
