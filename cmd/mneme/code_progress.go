package main

import (
	"fmt"
	"strconv"
	"time"
)

// progressFlag is --progress: on, off, or not given (then the command
// decides).
type progressFlag struct{ set, on bool }

func (p *progressFlag) String() string {
	if p == nil || !p.set {
		return ""
	}
	return strconv.FormatBool(p.on)
}

func (p *progressFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	p.set, p.on = true, v
	return nil
}

func (p *progressFlag) IsBoolFlag() bool { return true }

// progressEvery is how often a line is printed off a terminal.
const progressEvery = 2 * time.Second

// indexProgress reports code --index's files on stderr, since indexing a
// repository can take minutes: a bar on a terminal; otherwise (a log, CI)
// a line when it starts, at most one every 2 s, and one when it ends. With
// --json only when --progress is given, as JSON lines; --progress=false
// silences it. Nil: nothing to report.
func (a *app) indexProgress(flag progressFlag) func(done, total int) {
	if flag.set && !flag.on || a.json && !flag.set {
		return nil
	}
	a.ownProgress = true // the Engine's per-batch bars would interleave
	if isTerminal(a.stderr) && !a.json {
		return func(done, total int) {
			if total > 0 {
				progressBar(a, "index ", "files")(done, total)
			}
		}
	}
	r := &lineProgress{now: time.Now, print: func(line string, done, total int, elapsed time.Duration) {
		if a.json {
			fmt.Fprintf(a.stderr, `{"progress":{"task":"index","done":%d,"total":%d,"elapsed_ms":%d}}`+"\n", done, total, elapsed.Milliseconds())
			return
		}
		fmt.Fprintln(a.stderr, line)
	}}
	return r.report
}

// lineProgress prints progress as lines, throttled.
type lineProgress struct {
	now          func() time.Time
	print        func(line string, done, total int, elapsed time.Duration)
	start, last  time.Time
	started, end bool
}

func (r *lineProgress) report(done, total int) {
	now := r.now()
	switch {
	case total == 0 || r.end:
		return
	case !r.started:
		r.started, r.start, r.last = true, now, now
		r.print(fmt.Sprintf("index: %d %s to read and embed", total, plural(total, "file", "files")), done, total, 0)
		return
	case done < total && now.Sub(r.last) < progressEvery:
		return
	}
	r.last, r.end = now, done >= total
	elapsed := now.Sub(r.start)
	r.print(fmt.Sprintf("index: %d/%d files (%d%%), %s", done, total, 100*done/total, elapsed.Round(100*time.Millisecond)), done, total, elapsed)
}
