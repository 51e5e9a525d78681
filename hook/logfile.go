package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// MaxLog is the size at which the hook log is rotated (one old file kept).
const MaxLog = 1 << 20

// LogPath is the hook log in home.
func LogPath(home string) string { return filepath.Join(home, "logs", "hooks.log") }

// Log appends one line to the home's hook log, rotating it past MaxLog.
// The hook's errors go here, never to the host.
func Log(home, format string, args ...any) {
	if home == "" {
		return
	}
	p := LogPath(home)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > MaxLog {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}
