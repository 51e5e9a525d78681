// Command mneme is long-term memory for AI agents: remember, ingest and
// recall memories in a local data directory.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signalContext()
	stopProfile := startProfile(os.Getenv)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stopProfile()
	stop()
	os.Exit(code)
}

// signalContext is a context that SIGINT or SIGTERM ends, with the signal
// as its cause (so the exit code can say which). After the first signal
// the default handling is back: a second Ctrl-C ends the process at once.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			cancel(signalled{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel(nil) }
}

// signalled is the cause of a context ended by a signal.
type signalled struct{ os.Signal }

func (s signalled) Error() string { return s.Signal.String() }

// Is makes a signal's end of work a cancellation like any other.
func (s signalled) Is(target error) bool { return target == context.Canceled }

// exitCode is the shell's code for a process ended by the signal: 128+n.
func (s signalled) exitCode() int {
	if n, ok := s.Signal.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}
