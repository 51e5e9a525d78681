// Package codemem is mneme's code memory: a per-repository artifact (every
// file's size, modification time, xxh3 hash, language, imports and
// entry-point markers) kept in the user's cache, so that "what is here,
// what changed since last time, where do I start" is answered from a walk
// and a stat of each file, rehashing only what changed. From it come the
// delta since the last call and the context slice (entry points, hot paths,
// top imports, the import graph); Index feeds changed files into the
// Engine as code records.
package codemem

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/mneme-ai/mneme"
)

// Options configure a Service.
type Options struct {
	CacheDir string // where artifacts live (CacheDir)
	// Restrict limits the roots served to those under Roots (a server's
	// code.roots); unrestricted, any directory is served (the CLI).
	Restrict bool
	Roots    []string
	TTL      time.Duration // 0: DefaultTTL
	MaxRepos int           // artifacts kept; 0: DefaultMaxRepos
	Now      func() time.Time
}

// Service answers the code commands over the artifacts of one cache
// directory. It is safe for concurrent use.
type Service struct {
	o     Options
	roots []string // canonical
	mu    sync.Mutex
	locks map[string]*sync.Mutex // per repository
}

// New returns a Service.
func New(o Options) *Service {
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.MaxRepos <= 0 {
		o.MaxRepos = DefaultMaxRepos
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{o: o, locks: map[string]*sync.Mutex{}}
	for _, r := range o.Roots {
		if c, err := canonical(r); err == nil {
			s.roots = append(s.roots, c)
		}
	}
	return s
}

// Request is what every code command takes.
type Request struct {
	ProjectRoot string `json:"project_root"`
	Detail      string `json:"detail,omitempty"`  // compact (default), normal or verbose
	Refresh     bool   `json:"refresh,omitempty"` // rehash every file
}

// Cache statuses.
const (
	Hit          = "hit"           // the artifact was fresh: only changed files were rehashed
	Miss         = "miss"          // no usable artifact (none, torn, or another format version): built cold
	Refreshed    = "refreshed"     // asked to rehash every file
	StaleRebuild = "stale_rebuild" // the artifact was older than the TTL: rebuilt before use
)

// Envelope is every code command's answer.
type Envelope struct {
	Command     string `json:"command"`
	ProjectRoot string `json:"project_root"`
	ProjectID   string `json:"project_id"`
	CacheStatus string `json:"cache_status"`
	Stats       Stats  `json:"stats"`
	Delta       Delta  `json:"delta"`
	Context     *Slice `json:"context,omitempty"`
	// Notes say what the walk could not read (an ignore file that is not a
	// regular file, or too large), for a person: none, usually.
	Notes []string `json:"notes,omitempty"`

	entries []Entry
	cold    bool // no previous artifact: the delta lists no files
}

// Entries are the repository's files as scanned.
func (e *Envelope) Entries() []Entry { return e.entries }

// Commands.
const (
	CmdExplore = "explore" // the envelope and the context slice
	CmdDelta   = "delta"   // the envelope: what changed
	CmdContext = "context" // as explore
	CmdRefresh = "refresh" // rehash everything; the envelope
)

// Run scans the repository of req for command and returns its envelope.
func (s *Service) Run(command string, req Request) (*Envelope, error) {
	detail, err := CheckDetail(req.Detail)
	if err != nil {
		return nil, err
	}
	root, err := s.admit(req.ProjectRoot)
	if err != nil {
		return nil, err
	}
	id := ProjectID(root)
	lock := s.lock(id)
	lock.Lock()
	defer lock.Unlock()

	file := artifactPath(s.o.CacheDir, id)
	now := s.o.Now()
	a, loadErr := load(file)
	env := &Envelope{Command: command, ProjectRoot: root, ProjectID: id, CacheStatus: Hit}
	var prev []Entry
	rehash := req.Refresh || command == CmdRefresh
	switch {
	case a == nil || a.Root != root:
		env.CacheStatus, env.cold = Miss, true
		a = &artifact{Root: root, Built: now}
		_ = loadErr // torn, foreign or another version: rebuilt cold
	case now.Sub(a.Built) > s.o.TTL:
		env.CacheStatus, prev, rehash = StaleRebuild, a.Entries, true
		a.Built = now
	case rehash:
		env.CacheStatus, prev = Refreshed, a.Entries
		a.Built = now
	default:
		prev = a.Entries
	}
	entries, delta, stats, notes, err := scan(root, prev, rehash)
	if err != nil {
		return nil, mneme.Invalid("%s: %v", root, err)
	}
	if env.cold {
		delta = diff(nil, entries, true)
	}
	env.Stats, env.Delta, env.Notes, env.entries = stats, delta, notes, entries
	changed := env.CacheStatus != Hit || stats.RehashedEntries > 0 || delta.Removed > 0 || a.Compact == nil
	if changed {
		a.Entries, a.Compact = entries, buildSlice(root, entries, Compact)
		if err := store(file, a); err != nil {
			return nil, mneme.InternalError(err, "write the code artifact")
		}
		touch(file, now) // the LRU runs on the service's clock
		evict(s.o.CacheDir, s.o.MaxRepos)
	} else {
		touch(file, now)
	}
	switch {
	case command != CmdExplore && command != CmdContext:
	case detail == Compact:
		env.Context = a.Compact.nonNil() // the slice is a function of the entries: built once per change
	default:
		env.Context = buildSlice(root, entries, detail)
	}
	return env, nil
}

func (s *Service) lock(id string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.locks[id]
	if l == nil {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	return l
}

// ProjectID is the repository id of a canonical root: its xxh3, in hex.
// It names the artifact and the project of the repository's records.
func ProjectID(root string) string { return fmt.Sprintf("%016x", xxh3.HashString(root)) }

// admit resolves a requested root and checks it may be served.
func (s *Service) admit(root string) (string, error) {
	if strings.TrimSpace(root) == "" {
		return "", invalid("no project_root given: name the repository's directory")
	}
	if s.o.Restrict && !filepath.IsAbs(root) {
		return "", invalid("project_root %s is not an absolute path", root)
	}
	c, err := canonical(root)
	if s.o.Restrict && !s.allowed(c) {
		return "", mneme.Errorf(mneme.EFORBIDDEN, "%s is not under a directory allowed for code exploration: add it to code.roots in config.json", mneme.Clip(root))
	}
	if err != nil {
		return "", invalid("project_root %s: %v", root, errors.Unwrap(err))
	}
	if fi, err := os.Stat(c); err != nil || !fi.IsDir() {
		return "", invalid("project_root %s is not a directory", root)
	}
	return c, nil
}

func (s *Service) allowed(c string) bool {
	for _, r := range s.roots {
		if c == r || strings.HasPrefix(c, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// canonical is the absolute path with symlinks resolved; when that fails,
// the cleaned absolute path and the error.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p, err
	}
	c, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return abs, err
	}
	return c, nil
}

func invalid(format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = mneme.Clip(s)
		}
	}
	return mneme.Invalid(format, args...)
}
