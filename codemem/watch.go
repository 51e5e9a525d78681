package codemem

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions tune Watch.
type WatchOptions struct {
	// Interval is the poll period: the only trigger when native file events
	// are unavailable (Poll, or the watcher failed), a safety net otherwise.
	// 0 means 2 s.
	Interval time.Duration
	// Debounce waits for a burst of file events to settle before scanning.
	// 0 means 200 ms.
	Debounce time.Duration
	Poll     bool // never use native file events
}

// Watch scans the repository of req whenever its files change and calls
// emit with each envelope whose delta is not empty, until ctx ends or emit
// fails. The first scan's envelope is emitted whatever its delta, for the
// caller to catch up (Index); a caller that shows deltas shows it only
// when it is not empty. native reports whether file events are used.
func (s *Service) Watch(ctx context.Context, req Request, o WatchOptions, emit func(env *Envelope, native bool) error) error {
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	if o.Debounce <= 0 {
		o.Debounce = 200 * time.Millisecond
	}
	env, err := s.Run(CmdDelta, req)
	if err != nil {
		return err
	}
	events, stop := s.events(env, o.Poll)
	defer stop()
	if err := emit(env, events != nil); err != nil {
		return err
	}
	req.Refresh = false
	tick := time.NewTicker(o.Interval)
	defer tick.Stop()
	var settle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			settle = time.After(o.Debounce)
			continue
		case <-settle:
		case <-tick.C:
		}
		settle = nil
		env, err := s.Run(CmdDelta, req)
		if err != nil {
			return err
		}
		if env.Delta.Empty() {
			continue
		}
		if err := emit(env, events != nil); err != nil {
			return err
		}
	}
}

// events watches the directories of env's files; nil when native events
// are off or unavailable.
func (s *Service) events(env *Envelope, poll bool) (<-chan struct{}, func()) {
	if poll {
		return nil, func() {}
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, func() {}
	}
	dirs := map[string]bool{".": true}
	for _, e := range env.entries {
		for d := path.Dir(e.Path); !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		if err := w.Add(filepath.Join(env.ProjectRoot, filepath.FromSlash(d))); err != nil {
			w.Close() // out of watches: poll instead
			return nil, func() {}
		}
	}
	out := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(out)
		for {
			select {
			case <-done:
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
						w.Add(ev.Name) // a new directory: watch it too
					}
				}
				select {
				case out <- struct{}{}:
				default:
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return out, func() { close(done); w.Close() }
}
