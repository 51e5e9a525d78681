package main

import "time"

// rated is added to the JSON output of the bulk writes (import, ingest,
// reindex): their wall time and records per second, the figure that says
// whether a large import runs at the embedding model's rate.
type rated struct {
	Seconds          float64 `json:"seconds"`
	RecordsPerSecond float64 `json:"records_per_second"`
}

// rateSince is n records over the time since start.
func rateSince(n int, start time.Time) rated {
	s := time.Since(start).Seconds()
	r := rated{Seconds: s}
	if s > 0 {
		r.RecordsPerSecond = float64(n) / s
	}
	return r
}
