package main

import (
	"fmt"
)

// diff prints the questions whose R@10 differs between two profiles,
// with the evidence's time and text.
func diff(args []string) error {
	qs, err := load(args[0])
	if err != nil {
		return err
	}
	names, ps, err := variants(args[1:])
	if err != nil || len(ps) < 3 {
		return fmt.Errorf("diff DUMP A B: %v", err)
	}
	a, b := ps[1], ps[2]
	for i := range qs {
		q := &qs[i]
		ra, rb := recallAt(a, q, 10), recallAt(b, q, 10)
		if ra == rb {
			continue
		}
		fmt.Printf("cat %d %s %.2f -> %.2f: %s (evidence %v)\n", q.Cat, q.Conv, ra, rb, q.Text, q.Evidence)
		for j, f := range q.Found {
			for _, id := range q.IDs[j] {
				for _, e := range q.Evidence {
					if id == e {
						fmt.Printf("    %s %s %.100s\n", id, f.Doc.Time.Format("2006-01-02"), f.Doc.Text)
					}
				}
			}
		}
	}
	fmt.Println(names[1], "vs", names[2])
	return nil
}
