// Command minilmvectors writes real all-MiniLM-L6-v2 sentence vectors for
// the HNSW benchmarks in index/hnsw/real_bench_test.go:
//
//	go run ./tools/minilmvectors -out /tmp/minilm-100k.f32
//	MNEME_HNSW_VECTORS=/tmp/minilm-100k.f32 go test ./index/hnsw/ -run '^$' -bench Real
//
// Texts are the sentences and titles of /work/shared/bench/nfcorpus
// documents and the LoCoMo turns, topped up with sliding windows of 12–25
// words over the nfcorpus texts until -n distinct texts. Queries are held
// out: nfcorpus queries and LoCoMo questions, alternating, none of them an
// indexed text. Embedding 100k texts takes about 6 minutes on 2 cores.
//
// File format, little-endian: u32 rows, u32 dim, then rows·dim float32.
// The first -q rows are the queries, the rest the index in text order.
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/mneme-ai/mneme/embed/minilm"
)

func main() {
	out := flag.String("out", "/tmp/minilm-100k.f32", "output file")
	n := flag.Int("n", 100_000, "index vectors")
	nq := flag.Int("q", 500, "query vectors")
	data := flag.String("data", "/work/shared/bench", "directory holding nfcorpus/ and locomo-dev.json")
	flag.Parse()

	docs := readJSONL(filepath.Join(*data, "nfcorpus/corpus.jsonl"))
	nfq := readJSONL(filepath.Join(*data, "nfcorpus/queries.jsonl"))
	var locomo []struct {
		Conversation map[string]json.RawMessage
		QA           []struct{ Question string }
	}
	raw, err := os.ReadFile(filepath.Join(*data, "locomo-dev.json"))
	check(err)
	check(json.Unmarshal(raw, &locomo))

	seen := map[string]bool{}
	var texts []string
	add := func(t string) {
		if t = strings.Join(strings.Fields(t), " "); t != "" && !seen[t] && len(texts) < *n {
			seen[t] = true
			texts = append(texts, t)
		}
	}
	for _, d := range docs {
		add(d.Title)
		for _, s := range sentences(d.Text) {
			add(s)
		}
	}
	for _, c := range locomo {
		for s := 1; ; s++ {
			msg, ok := c.Conversation[fmt.Sprintf("session_%d", s)]
			if !ok {
				break
			}
			var turns []struct{ Text string }
			check(json.Unmarshal(msg, &turns))
			for _, t := range turns {
				add(t.Text)
			}
		}
	}
	log.Printf("%d sentences and turns", len(texts))
	for step := 13; len(texts) < *n && step > 0; step -= 4 {
		for _, d := range docs {
			w := strings.Fields(d.Text)
			for i := step / 2; i+12 <= len(w); i += step {
				add(strings.Join(w[i:min(len(w), i+12+(i*7)%14)], " "))
			}
		}
	}
	if len(texts) < *n {
		log.Fatalf("only %d distinct texts", len(texts))
	}

	var queries []string
	for i := 0; len(queries) < *nq && (i < len(nfq) || i < 1000); i++ {
		if i < len(nfq) {
			if t := strings.TrimSpace(nfq[i].Text); t != "" && !seen[t] {
				seen[t] = true
				queries = append(queries, t)
			}
		}
		if c := locomo[i%len(locomo)]; i/len(locomo) < len(c.QA) && len(queries) < *nq {
			if t := strings.TrimSpace(c.QA[i/len(locomo)].Question); t != "" && !seen[t] {
				seen[t] = true
				queries = append(queries, t)
			}
		}
	}
	if len(queries) < *nq {
		log.Fatalf("only %d queries", len(queries))
	}

	e, err := minilm.NewEmbedder(minilm.DefaultDir(os.Getenv))
	check(err)
	f, err := os.Create(*out)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	dim := e.Info().Dim
	check(binary.Write(w, binary.LittleEndian, [2]uint32{uint32(*nq + *n), uint32(dim)}))
	all := append(queries[:*nq:*nq], texts...)
	start := time.Now()
	for i := 0; i < len(all); i += 2000 {
		vecs, err := e.Embed(context.Background(), all[i:min(len(all), i+2000)])
		check(err)
		buf := make([]byte, 0, 4*dim*len(vecs))
		for _, v := range vecs {
			for _, x := range v {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
			}
		}
		_, err = w.Write(buf)
		check(err)
		done := i + len(vecs)
		log.Printf("%d/%d embedded, %.0f/s", done, len(all), float64(done)/time.Since(start).Seconds())
	}
	check(w.Flush())
	check(f.Close())
}

// sentences splits after '.', '!' or '?' followed by a space and a capital
// or digit; fragments under three words are dropped.
func sentences(text string) []string {
	var out []string
	r := []rune(text)
	from := 0
	for i := 0; i < len(r); i++ {
		end := i == len(r)-1
		if !end && strings.ContainsRune(".!?", r[i]) && i+2 < len(r) && r[i+1] == ' ' &&
			(unicode.IsUpper(r[i+2]) || unicode.IsDigit(r[i+2])) {
			end = true
		}
		if end {
			if s := strings.TrimSpace(string(r[from : i+1])); len(strings.Fields(s)) >= 3 {
				out = append(out, s)
			}
			from = i + 1
		}
	}
	return out
}

type doc struct{ Title, Text string }

func readJSONL(path string) []doc {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	var out []doc
	for dec := json.NewDecoder(f); dec.More(); {
		var d doc
		check(dec.Decode(&d))
		out = append(out, d)
	}
	return out
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
