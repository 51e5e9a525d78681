package main

import (
	"os"
	"os/exec"

	"github.com/mneme-ai/mneme/consolidate"
	"github.com/mneme-ai/mneme/hook"
)

// abstractLater starts `mneme summarize --strategy abstractive` for a
// session's summary request as a process of its own, detached from the
// hook (its own session, no standard input or output; its errors go to
// the hook log), and returns at once: the host never waits on a language
// model. The abstractive summary supersedes the extractive one when it is
// written.
func abstractLater(home string) func(consolidate.Request) {
	return func(req consolidate.Request) {
		exe, err := os.Executable()
		if err != nil {
			hook.Log(home, "abstractive summary of session %s not started: %v", req.Session, err)
			return
		}
		args := []string{"summarize", "--home", home, "--project", req.Project, "--session", req.Session,
			"--since", req.Since, "--until", req.Until, "--strategy", string(req.Strategy)}
		for _, t := range req.Tags {
			args = append(args, "--tags", t)
		}
		for _, k := range req.Kinds {
			args = append(args, "--kind", k)
		}
		cmd := exec.Command(exe, args...)
		if log, err := os.OpenFile(hook.LogPath(home), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
			defer log.Close() // the child holds its own copy
			cmd.Stderr = log
		}
		detach(cmd)
		if err := cmd.Start(); err != nil {
			hook.Log(home, "abstractive summary of session %s not started: %v", req.Session, err)
			return
		}
		_ = cmd.Process.Release()
	}
}
