package consolidate

import (
	"math"
	"strings"

	"github.com/mneme-ai/mneme"
)

// selection picks what an extractive summary quotes: a greedy budgeted
// maximum coverage of the window's concepts (its content words), in the
// manner of Gillick and Favre's concept-based summaries. A concept weighs
// its idf over the window's turns (a word most turns use says little),
// more in a name or a number, less in a turn that repeats it after the
// turn that brought it up. Whole turns are taken first, each by the weight
// of the concepts it adds per √(words it costs): a turn kept whole keeps
// all it says. When no further turn fits, single sentences fill the rest.
type selection struct {
	units   []unit
	srcs    []*mneme.Record
	weight  []map[string]float64 // per unit, each of its concepts' weight in it
	days    []string             // each source's day
	covered map[string]bool
	chosen  []bool
	started []bool // the source's speaker is laid out
	dayUsed map[string]bool
	used    int            // words laid out
	seen    map[string]int // a concept's last stamp (counted once per candidate)
	stamp   int
}

// candidate is a move: the units of one source it would add.
type candidate struct {
	src   int
	units []int
}

func newSelection(units []unit, srcs []*mneme.Record) *selection {
	s := &selection{units: units, srcs: srcs, weight: make([]map[string]float64, len(units)), days: make([]string, len(srcs)),
		covered: map[string]bool{}, chosen: make([]bool, len(units)), started: make([]bool, len(srcs)),
		dayUsed: map[string]bool{}, seen: map[string]int{}}
	for i, r := range srcs {
		s.days[i] = day(r.EventTime())
	}
	df, first, last := map[string]int{}, map[string]int{}, map[string]int{}
	for _, u := range units {
		for _, w := range u.concepts {
			if _, ok := first[w]; !ok {
				first[w], last[w] = u.src, -1
			}
			if last[w] != u.src {
				df[w], last[w] = df[w]+1, u.src
			}
		}
	}
	n := float64(len(srcs))
	for i, u := range units {
		s.weight[i] = make(map[string]float64, len(u.concepts))
		for _, w := range u.concepts {
			x := math.Log(1 + n/float64(df[w]))
			if u.names[w] {
				x *= nameWeight
			}
			if first[w] != u.src {
				x *= echoWeight
			}
			s.weight[i][w] = x
		}
	}
	return s
}

// run picks units within maxWords of layout, in the order it took them.
func (s *selection) run(maxWords int) []int {
	var turns, sentences []candidate
	for i, u := range s.units {
		if i == 0 || u.src != s.units[i-1].src {
			turns = append(turns, candidate{src: u.src})
		}
		t := &turns[len(turns)-1]
		t.units = append(t.units, i)
	}
	for _, t := range turns {
		if len(t.units) > 1 {
			for _, i := range t.units {
				sentences = append(sentences, candidate{src: t.src, units: []int{i}})
			}
		}
	}
	var picked []int
	for _, cs := range [][]candidate{turns, sentences} {
		for {
			best, bestScore, bestCost := -1, 0.0, 0
			for i := range cs {
				gain, n, cost := s.value(&cs[i])
				if n < minConcepts || s.used+cost > maxWords {
					continue
				}
				if score := gain / math.Pow(float64(cost), costPower); score > bestScore {
					best, bestScore, bestCost = i, score, cost
				}
			}
			if best < 0 {
				break
			}
			picked = s.take(&cs[best], bestCost, picked)
		}
	}
	return picked
}

// value is what c would add: the weight of its new concepts, how many, and
// the words its layout costs (its speaker's name and its date when they
// are not laid out yet).
func (s *selection) value(c *candidate) (gain float64, concepts, cost int) {
	s.stamp++
	for _, i := range c.units {
		if s.chosen[i] {
			continue
		}
		cost += s.units[i].words
		for _, w := range s.units[i].concepts {
			if !s.covered[w] && s.seen[w] != s.stamp {
				s.seen[w] = s.stamp
				gain += s.weight[i][w]
				concepts++
			}
		}
	}
	if cost == 0 {
		return 0, 0, 0
	}
	if !s.started[c.src] {
		cost += len(strings.Fields(s.srcs[c.src].Speaker))
	}
	if !s.dayUsed[s.days[c.src]] {
		cost++
	}
	return gain, concepts, cost
}

func (s *selection) take(c *candidate, cost int, picked []int) []int {
	for _, i := range c.units {
		if !s.chosen[i] {
			s.chosen[i], picked = true, append(picked, i)
			for _, w := range s.units[i].concepts {
				s.covered[w] = true
			}
		}
	}
	s.started[c.src], s.dayUsed[s.days[c.src]], s.used = true, true, s.used+cost
	return picked
}

// alone is a unit's weight by itself.
func (s *selection) alone(i int) float64 {
	var g float64
	for _, w := range s.units[i].concepts {
		g += s.weight[i][w]
	}
	return g
}
