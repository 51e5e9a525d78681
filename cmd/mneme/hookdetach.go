package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/hook"
)

// abstractLater starts `mneme summarize --strategy abstractive` for a
// session's summary request in a process of its own (startDetached): the
// host never waits on a language model. The abstractive summary
// supersedes the extractive one when it is written.
func abstractLater(home string) func(consolidate.Request) {
	return func(req consolidate.Request) {
		args := []string{"summarize", "--home", home, "--project", req.Project, "--session", req.Session,
			"--since", req.Since, "--until", req.Until, "--strategy", string(req.Strategy)}
		for _, t := range req.Tags {
			args = append(args, "--tags", t)
		}
		for _, k := range req.Kinds {
			args = append(args, "--kind", k)
		}
		startDetached(home, "abstractive summary of session "+req.Session, args)
	}
}

// onceEvery is how long a background job a hook started keeps later hooks
// from starting the same one (an index rebuild or a migration of a large
// home takes seconds; hooks running meanwhile would each start one).
const onceEvery = 5 * time.Minute

// warmLater starts `mneme sync --indexes` in a process of its own.
func warmLater(home string) func() {
	return func() { startOnce(home, "indexes-warming", "index warm-up", "sync", "--indexes", "--home", home) }
}

// startOnce starts this binary with args in a process of its own
// (startDetached) unless the hooks' state holds a marker of that name
// younger than onceEvery; it leaves a fresh marker.
func startOnce(home, marker, what string, args ...string) {
	mark := filepath.Join(home, "hooks", marker)
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < onceEvery {
		return
	}
	if err := os.MkdirAll(filepath.Dir(mark), 0o700); err == nil {
		_ = os.WriteFile(mark, nil, 0o600)
	}
	startDetached(home, what, args)
}

// startDetached starts this binary with args as a process of its own,
// detached from the hook (its own session, no standard input or output;
// its errors go to the hook log), and returns at once.
func startDetached(home, what string, args []string) {
	exe, err := os.Executable()
	if err != nil {
		hook.Log(home, "%s not started: %v", what, err)
		return
	}
	cmd := exec.Command(exe, args...)
	if log, err := os.OpenFile(hook.LogPath(home), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
		defer log.Close() // the child holds its own copy
		cmd.Stderr = log
	}
	detach(cmd)
	if err := cmd.Start(); err != nil {
		hook.Log(home, "%s not started: %v", what, err)
		return
	}
	_ = cmd.Process.Release()
}
