package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/rank"
)

// pool measures candidate pools smaller than a dump's: each question keeps
// the candidates within lexK of the lexical lane or vecK of the vector
// lane (a dump made with -k at least both), as the store would have
// returned them. Args: DUMP SPEC... [FIELD=V...], a SPEC being
// LEXK,VECK[,DEEP[,SEVERAL]]: DEEP for a question that names a time,
// SEVERAL for one that asks for several things (0: as the others). Each
// conversation's R@10 is printed too, for leaving one out.
func pool(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	p := rank.Default()
	var specs []string
	for _, a := range args[1:] { // FIELD=V sets a profile field for every pool
		if field, v, ok := strings.Cut(a, "="); ok {
			if err := p.Set(field, v); err != nil {
				return err
			}
			continue
		}
		specs = append(specs, a)
	}
	for _, spec := range specs {
		l, v, _ := strings.Cut(spec, ",")
		lexK, _ := strconv.Atoi(l)
		vecK, _ := strconv.Atoi(v)
		deep := 0    // LEXK,VECK,DEEP: questions that ask when or name a time get DEEP in both lanes
		several := 0 // LEXK,VECK,DEEP,SEVERAL: questions asking for several things get SEVERAL in both lanes
		if parts := strings.Split(spec, ","); len(parts) >= 3 {
			deep, _ = strconv.Atoi(parts[2])
			vecK, _ = strconv.Atoi(parts[1])
			if len(parts) == 4 {
				several, _ = strconv.Atoi(parts[3])
			}
		}
		var cats catMeans
		conv := map[string]*catMeans{} // per conversation, for leaving one out
		for i := range qs {
			q := cut(qs[i], lexK, vecK)
			if several > 0 && rank.AsksSeveral(qs[i].Text) {
				q = cut(qs[i], several, several)
			}
			if _, named := rank.Named(qs[i].Text, now); deep > 0 && named {
				q = cut(qs[i], deep, deep)
			}
			r := recallAt(p, &q, 10)
			cats.add(q.Cat, r)
			if conv[q.Conv] == nil {
				conv[q.Conv] = &catMeans{}
			}
			conv[q.Conv].add(q.Cat, r)
		}
		fmt.Println(line("pool "+spec, cats.means()))
		for _, c := range sortedKeys(conv) {
			fmt.Printf("  %s %.4f\n", c, conv[c].means()["all"])
		}
	}
	return nil
}

// cut is q with the candidates of the pool (lexK, vecK) only.
func cut(q Q, lexK, vecK int) Q {
	out := q
	out.Found, out.IDs = nil, nil
	for i, f := range q.Found {
		if f.LexicalRank > lexK {
			f.LexicalRank = 0
		}
		if f.VectorRank > vecK {
			f.VectorRank = 0
		}
		if f.LexicalRank == 0 && f.VectorRank == 0 {
			continue
		}
		out.Found, out.IDs = append(out.Found, f), append(out.IDs, q.IDs[i])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
