// Package setup installs (and removes) mneme's hooks and MCP server in an
// agent host's configuration files, merging with what is there: the
// user's own hooks, servers and settings are kept as written.
package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mneme-ai/mneme"
)

// Options say what to install, and where.
type Options struct {
	Host       string
	ProjectDir string // the project's directory; "" for the user's own files
	UserHome   string // the user's home directory
	Bin        string // this binary, absolute
	DataHome   string // mneme's home, absolute
	Remove     bool
}

// Change is one file's new content.
type Change struct {
	Path          string
	Before, After []byte // Before nil: the file is new
}

// Hosts lists the hosts setup knows.
func Hosts() []string {
	names := make([]string, 0, len(hosts))
	for n := range hosts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Plan computes the changes, writing nothing. A file that is not plain
// JSON is refused (nothing is written): the message shows what to add.
func Plan(o Options) ([]Change, error) {
	h, ok := hosts[o.Host]
	if !ok {
		return nil, mneme.Invalid("unknown host %q: use %s", mneme.Clip(o.Host), strings.Join(Hosts(), ", "))
	}
	base := o.UserHome
	if o.ProjectDir != "" {
		base = o.ProjectDir
	}
	cmd := fmt.Sprintf("%s hook %s --home %s", shellQuote(o.Bin), h.name, shellQuote(o.DataHome))
	edits := map[string][]func([]byte) ([]byte, error){}
	hooksPath := filepath.Join(base, h.hooksFile(o.ProjectDir != ""))
	edits[hooksPath] = append(edits[hooksPath], func(b []byte) ([]byte, error) { return h.mergeHooks(b, cmd, o.Remove) })
	mcpPath := filepath.Join(base, h.mcpFile(o.ProjectDir != ""))
	args := []string{"mcp", "--home", o.DataHome}
	edits[mcpPath] = append(edits[mcpPath], func(b []byte) ([]byte, error) { return h.mergeMCP(b, o.Bin, args, o.Remove) })
	var out []Change
	for _, p := range sortedKeys(edits) {
		before, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, mneme.Invalid("cannot read %s: %v", p, err)
		}
		after := before
		for _, edit := range edits[p] {
			if after, err = edit(after); err != nil {
				return nil, mneme.Invalid("cannot merge into %s: %v; edit it by hand (`mneme setup %s --dry-run` shows the entries)", p, err, h.name)
			}
		}
		if before == nil && o.Remove {
			continue
		}
		out = append(out, Change{Path: p, Before: before, After: after})
	}
	return out, nil
}

// Apply writes the changes, each file atomically (mode kept).
func Apply(cs []Change) error {
	for _, c := range cs {
		if bytes.Equal(c.Before, c.After) {
			continue
		}
		mode := os.FileMode(0o644)
		if fi, err := os.Stat(c.Path); err == nil {
			mode = fi.Mode().Perm()
		}
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(c.Path), filepath.Base(c.Path)+".mneme-*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(c.After)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), mode)
		}
		if err == nil {
			err = os.Rename(tmp.Name(), c.Path)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}

// mergeHooks takes mneme's handlers out of every event, then (unless
// remove) adds one for each event mneme hooks.
func (h host) mergeHooks(b []byte, cmd string, remove bool) ([]byte, error) {
	root, err := parseObject(b)
	if err != nil {
		return nil, err
	}
	if h.version && root.get("version") == nil && !remove {
		root.set("version", 1)
	}
	hooks, err := parseObject(root.get("hooks"))
	if err != nil {
		return nil, fmt.Errorf("\"hooks\" is %v", err)
	}
	for _, ev := range append([]string(nil), hooks.keys...) {
		var arr []json.RawMessage
		if json.Unmarshal(hooks.get(ev), &arr) != nil {
			continue // not a list: not ours to touch
		}
		arr = withoutOurs(arr, h.flat)
		if len(arr) == 0 {
			hooks.del(ev)
		} else {
			hooks.set(ev, arr)
		}
	}
	if !remove {
		for _, ev := range h.events {
			var arr []json.RawMessage
			_ = json.Unmarshal(hooks.get(ev), &arr)
			hooks.set(ev, append(arr, h.entry(ev, cmd)))
		}
	}
	if len(hooks.keys) == 0 {
		root.del("hooks")
	} else {
		root.set("hooks", hooks)
	}
	return pretty(root), nil
}

// entry is mneme's handler for event (in a matcher group, except flat).
func (h host) entry(event, cmd string) json.RawMessage {
	handler := h.handler(cmd)
	if h.flat {
		return encode(handler)
	}
	g := newObject()
	if m, ok := h.matcher[event]; ok {
		g.set("matcher", m)
	}
	g.set("hooks", []*object{handler})
	return encode(g)
}

// withoutOurs drops mneme's handlers from an event's list; a group left
// without handlers goes with them.
func withoutOurs(arr []json.RawMessage, flat bool) []json.RawMessage {
	var kept []json.RawMessage
	for _, el := range arr {
		o, err := parseObject(el)
		if err != nil {
			kept = append(kept, el)
			continue
		}
		if ours(o) {
			continue
		}
		var inner []json.RawMessage
		if flat || json.Unmarshal(o.get("hooks"), &inner) != nil || len(inner) == 0 {
			kept = append(kept, el)
			continue
		}
		left := withoutOurs(inner, true)
		switch {
		case len(left) == len(inner):
			kept = append(kept, el)
		case len(left) > 0:
			o.set("hooks", left)
			kept = append(kept, encode(o))
		}
	}
	return kept
}

// ours reports whether a handler runs `mneme hook` (any binary named
// mneme…, any host).
func ours(o *object) bool {
	var cmd string
	if json.Unmarshal(o.get("command"), &cmd) != nil {
		return false
	}
	i := strings.Index(cmd, " hook ")
	return i > 0 && strings.HasPrefix(filepath.Base(strings.Trim(cmd[:i], `'"`)), "mneme")
}

// mergeMCP sets (or removes) the "mneme" MCP server.
func (h host) mergeMCP(b []byte, bin string, args []string, remove bool) ([]byte, error) {
	if h.mcpTOML {
		return mergeTOML(b, bin, args, remove), nil
	}
	root, err := parseObject(b)
	if err != nil {
		return nil, err
	}
	servers, err := parseObject(root.get("mcpServers"))
	if err != nil {
		return nil, fmt.Errorf("\"mcpServers\" is %v", err)
	}
	servers.del("mneme")
	if !remove {
		servers.set("mneme", h.mcpEntry(bin, args))
	}
	if len(servers.keys) == 0 {
		root.del("mcpServers")
	} else {
		root.set("mcpServers", servers)
	}
	return pretty(root), nil
}

// mergeTOML replaces the [mcp_servers.mneme] table (and its subtables)
// in a config.toml, leaving every other line as it was.
func mergeTOML(b []byte, bin string, args []string, remove bool) []byte {
	var out []string
	skip := false
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			skip = t == "[mcp_servers.mneme]" || strings.HasPrefix(t, "[mcp_servers.mneme.")
		}
		if !skip {
			out = append(out, line)
		}
	}
	text := strings.TrimRight(strings.Join(out, "\n"), "\n")
	if !remove {
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = string(encode(a))
		}
		if text != "" {
			text += "\n\n"
		}
		text += fmt.Sprintf("[mcp_servers.mneme]\ncommand = %s\nargs = [%s]", encode(bin), strings.Join(quoted, ", "))
	}
	if text == "" {
		return []byte{}
	}
	return []byte(text + "\n")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
