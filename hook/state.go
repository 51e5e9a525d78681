package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// state is what the hooks remember of one session between invocations
// (each is its own process): whether its session record is written, its
// project (events later in a session may come from another directory),
// and how often each tool call was seen, so a repeated call is counted
// instead of stored again.
type state struct {
	path    string
	Written bool           `json:"written"`
	Project string         `json:"project"`
	Repo    string         `json:"repo"`
	Started time.Time      `json:"started"`
	Prompts int            `json:"prompts"`
	Calls   int            `json:"calls"`
	Failed  int            `json:"failed"`
	Repeats int            `json:"repeats"`
	Tools   map[string]int `json:"tools"`
	Seen    map[string]int `json:"seen"` // tool call hash: times seen
	First   string         `json:"first,omitempty"`
}

// maxSeen bounds the hashes kept per session.
const maxSeen = 5000

// loadState reads the session's state, or a fresh one. The file name is
// a hash: session ids come from outside.
func loadState(home, session string) *state {
	sum := sha256.Sum256([]byte(session))
	p := filepath.Join(home, "hooks", "sessions", hex.EncodeToString(sum[:12])+".json")
	s := &state{}
	if b, err := os.ReadFile(p); err == nil {
		_ = json.Unmarshal(b, s)
	}
	s.path = p
	if s.Tools == nil {
		s.Tools = map[string]int{}
	}
	if s.Seen == nil {
		s.Seen = map[string]int{}
	}
	return s
}

// save writes the state atomically (a concurrent hook of the same session
// may lose a count, never corrupt the file).
func (s *state) save() error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	b, _ := json.Marshal(s)
	tmp := s.path + ".tmp" + randSuffix()
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, s.path)
}

// seen counts a tool call and reports whether it was seen before.
func (s *state) seen(key string) bool {
	s.Seen[key]++
	if s.Seen[key] > 1 {
		s.Repeats++
		return true
	}
	if len(s.Seen) > maxSeen {
		for k := range s.Seen { // drop an arbitrary old entry
			delete(s.Seen, k)
			break
		}
	}
	return false
}

func randSuffix() string {
	b := make([]byte, 6)
	sum := sha256.Sum256([]byte(time.Now().String()))
	copy(b, sum[:])
	return hex.EncodeToString(b)
}
