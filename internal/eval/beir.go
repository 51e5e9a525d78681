package eval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Doc is one BEIR corpus document.
type Doc struct {
	ID, Title, Text string
}

// BEIR is a BEIR dataset: the corpus, one split's queries and their
// judgements.
type BEIR struct {
	Docs    []Doc
	Queries map[string]string         // id -> text, only those with judgements in the split
	Qrels   map[string]map[string]int // query id -> doc id -> grade
}

// LoadBEIR reads corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv from dir
// (split: test, dev or train).
func LoadBEIR(dir, split string) (*BEIR, error) {
	b := &BEIR{Queries: map[string]string{}, Qrels: map[string]map[string]int{}}
	if err := eachLine(filepath.Join(dir, "qrels", split+".tsv"), func(line string, n int) error {
		f := strings.Split(line, "\t")
		if n == 1 && len(f) > 0 && f[0] == "query-id" {
			return nil
		}
		if len(f) != 3 {
			return fmt.Errorf("want 3 tab-separated fields")
		}
		g, err := strconv.Atoi(f[2])
		if err != nil {
			return err
		}
		if b.Qrels[f[0]] == nil {
			b.Qrels[f[0]] = map[string]int{}
		}
		b.Qrels[f[0]][f[1]] = g
		return nil
	}); err != nil {
		return nil, err
	}
	if err := eachLine(filepath.Join(dir, "queries.jsonl"), func(line string, _ int) error {
		var q struct{ ID, Text string }
		if err := json.Unmarshal([]byte(line), &struct {
			ID   *string `json:"_id"`
			Text *string `json:"text"`
		}{&q.ID, &q.Text}); err != nil {
			return err
		}
		if b.Qrels[q.ID] != nil {
			b.Queries[q.ID] = q.Text
		}
		return nil
	}); err != nil {
		return nil, err
	}
	err := eachLine(filepath.Join(dir, "corpus.jsonl"), func(line string, _ int) error {
		var d Doc
		if err := json.Unmarshal([]byte(line), &struct {
			ID    *string `json:"_id"`
			Title *string `json:"title"`
			Text  *string `json:"text"`
		}{&d.ID, &d.Title, &d.Text}); err != nil {
			return err
		}
		b.Docs = append(b.Docs, d)
		return nil
	})
	return b, err
}

func eachLine(path string, fn func(line string, n int) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		if err := fn(sc.Text(), n); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// DocumentQueries turns b into a benchmark of long queries: for each
// judged query, its first document (by id) of the highest grade becomes
// the query, asking for the other documents judged for the query. It
// returns each new query's own document, which a run leaves out of its
// hits. Queries judging one document only are dropped.
func (b *BEIR) DocumentQueries() map[string]string {
	text := make(map[string]string, len(b.Docs))
	for _, d := range b.Docs {
		text[d.ID] = strings.TrimSpace(d.Title + " " + d.Text)
	}
	self := map[string]string{}
	for qid, grades := range b.Qrels {
		best, top := "", 0
		for id, g := range grades {
			if text[id] != "" && (g > top || g == top && id < best) {
				best, top = id, g
			}
		}
		if best == "" || len(grades) < 2 {
			delete(b.Qrels, qid)
			delete(b.Queries, qid)
			continue
		}
		delete(grades, best)
		b.Queries[qid], self[qid] = text[best], best
	}
	return self
}
