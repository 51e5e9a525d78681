package mneme

import (
	"bufio"
	"bytes"
)

// DecodeLines reads records written by export: one JSON record per
// non-blank line, decoded strictly. lines[i] is the line number of recs[i],
// for errors found later (a batch error names its index). An error names
// its line.
func DecodeLines(data []byte) (recs []*Record, lines []int, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 2*MaxTextBytes+MaxMetaBytes+64<<10)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		r := new(Record)
		if err := DecodeStrict(sc.Bytes(), r); err != nil {
			return nil, nil, Invalid("line %d: %s", n, rawMessage(err))
		}
		recs, lines = append(recs, r), append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, Invalid("line %d: %v (a line holds at most one record of up to 1 MiB of text)", n+1, err)
	}
	if len(recs) == 0 {
		return nil, nil, Invalid("no records: write one JSON record per line, as export writes them")
	}
	return recs, lines, nil
}
