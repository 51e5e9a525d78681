package mneme

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/quality"
)

// EFORBIDDEN is the code of a call the caller's scope does not allow.
const EFORBIDDEN = "EFORBIDDEN"

// Scope is what a caller may do: the projects it may touch, whether it may
// write, and the most sensitive records it may read. A surface puts the
// caller's scope in the context (WithScope) and the Engine enforces it in
// every use case, so a new surface cannot forget a check.
type Scope struct {
	Name      string      // for messages and logs (a token's name); never a secret
	Projects  []string    // empty: every project
	Write     bool        // may remember, update, import and forget
	Clearance Sensitivity // the most sensitive records readable; "" means Internal
	// local marks the owner of the data directory (the CLI, the library),
	// as opposed to a caller a server let in: only the owner's imports
	// keep promotion history as given (see stampImported) and rebuild the
	// ingest registry (registerDocuments).
	local bool
}

// Owner is the scope of a context that carries none: the library and the
// CLI, run by the owner of the data directory.
var Owner = Scope{Name: "owner", Write: true, Clearance: Secret, local: true}

type scopeKey struct{}

// WithScope returns ctx carrying s: the Engine's use cases called with it
// act as s allows.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom returns the scope ctx carries, or Owner.
func ScopeFrom(ctx context.Context) Scope {
	if s, ok := ctx.Value(scopeKey{}).(Scope); ok {
		return s
	}
	return Owner
}

// Hash is the hex sha256 of what s allows (projects, write, clearance;
// not its name), for quality reports: equal scopes hash alike.
func (s Scope) Hash() string {
	clearance := s.Clearance
	if clearance == "" {
		clearance = Internal
	}
	return quality.ScopeHash(s.Projects, s.Write, string(clearance))
}

// Covers reports whether s may touch project.
func (s Scope) Covers(project string) bool {
	return len(s.Projects) == 0 || slices.Contains(s.Projects, project)
}

// Resolve is the project a call works in under s: the one it names, which
// s must cover; else the only project of a scope limited to one; else ""
// (every project) for a scope limited to none. A scope limited to several
// must name one.
func (s Scope) Resolve(project string) (string, error) {
	switch {
	case project != "" && !s.Covers(project):
		return "", Errorf(EFORBIDDEN, "token %q does not cover project %q: it covers %s", s.Name, Clip(project), strings.Join(s.Projects, ", "))
	case project != "" || len(s.Projects) == 0:
		return project, nil
	case len(s.Projects) == 1:
		return s.Projects[0], nil
	}
	return "", Invalid("token %q covers several projects (%s): name one with project", s.Name, strings.Join(s.Projects, ", "))
}

// Reads is the most sensitive level s may read: what a server's caller
// reads with, since its clearance is its token's.
func (s Scope) Reads() Sensitivity {
	if s.Clearance == "" {
		return Internal
	}
	return s.Clearance
}

// CanRead reports whether s may read r at all: r's project is one s
// covers and r is no more sensitive than s's clearance. A record s may not
// read does not exist for it, on every path: get, list and recall, but also
// dedupe, supersession by key, import by id and error messages. Stores
// apply it (CheckImport, HidesSecrets) to what a write would touch.
func (s Scope) CanRead(r *Record) bool {
	return s.Covers(r.Project) && r.Visible(s.Reads())
}

// HidesSecrets reports whether the caller of ctx may not read secret
// records: a store then leaves them out of what a write dedupes against
// and supersedes.
func HidesSecrets(ctx context.Context) bool { return ScopeFrom(ctx).Reads() != Secret }

// Allow caps clearance at what s may read.
func (s Scope) Allow(clearance Sensitivity) Sensitivity {
	if clearance == Secret && s.Clearance != Secret {
		return Internal
	}
	return clearance
}

// mustWrite refuses a write (what names it) to a read-only scope.
func (s Scope) mustWrite(what string) error {
	if s.Write {
		return nil
	}
	return Errorf(EFORBIDDEN, "token %q is read-only and %s writes: use a token with access write", s.Name, what)
}

// mustOwnAll refuses a store-wide write to a read-only scope or one
// limited to projects.
func (s Scope) mustOwnAll(what string) error {
	if len(s.Projects) > 0 {
		return Errorf(EFORBIDDEN, "token %q covers only some projects and %s touches all of them", s.Name, what)
	}
	return s.mustWrite(what)
}

// Stats is st as s may see it: without clearance secret, the counts leave
// out the secret records (st.SecretOnly); a scope limited to projects sees
// only theirs and their total (the store-wide counters of superseded,
// expired and secret records and documents would tell about other
// projects).
func (s Scope) Stats(st Stats) Stats {
	if s.Allow(Secret) != Secret {
		st = st.without(st.SecretOnly)
	}
	st.SecretOnly = nil
	if len(s.Projects) == 0 {
		return st
	}
	mine := Stats{Projects: []ProjectStats{}, EmbedderError: st.EmbedderError}
	for _, p := range st.Projects {
		if s.Covers(p.Project) {
			mine.Projects = append(mine.Projects, p)
			mine.Total += p.Total
			mine.PendingEmbeddings += p.PendingEmbeddings
		}
	}
	return mine
}

// without is st less part, a part of its counts; a project or a type left
// with none is dropped.
func (st Stats) without(part *Stats) Stats {
	if part == nil {
		return st
	}
	out := Stats{Total: st.Total - part.Total, Superseded: st.Superseded - part.Superseded, Expired: st.Expired - part.Expired,
		Secret: st.Secret - part.Secret, Documents: st.Documents - part.Documents, Projects: []ProjectStats{},
		PendingEmbeddings: st.PendingEmbeddings, EmbedderError: st.EmbedderError, Embedders: st.Embedders} // secret records are never embedded
	less := make(map[string]ProjectStats, len(part.Projects))
	for _, p := range part.Projects {
		less[p.Project] = p
	}
	for _, p := range st.Projects {
		l := less[p.Project]
		if p.Total -= l.Total; p.Total <= 0 {
			continue
		}
		types := make(map[string]int, len(p.Types))
		for t, n := range p.Types {
			if n -= l.Types[t]; n > 0 {
				types[t] = n
			}
		}
		p.Types = types
		out.Projects = append(out.Projects, p)
	}
	return out
}

// scoped applies ctx's scope to f: its project resolved, its clearance
// capped.
func scoped(ctx context.Context, f *Filter) error {
	sc := ScopeFrom(ctx)
	var err error
	f.Project, err = sc.Resolve(f.Project)
	f.Clearance = sc.Allow(f.Clearance)
	return err
}

// Clip bounds a value quoted in a message: a 1 MB project name must not
// come back in a 1 MB error.
func Clip(s string) string { return clipTo(s, 80) }

func clipTo(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

var (
	quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	wordRE   = regexp.MustCompile(`\S{101,}`)
)

// ClipMessage bounds a message mneme did not write, which may quote the
// caller's values whole (the flag package's, the MCP SDK's schema
// validation): each quoted string and each long run without spaces is
// clipped as Clip does, and the whole message to 512 bytes.
func ClipMessage(msg string) string {
	msg = quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		s, err := strconv.Unquote(q)
		if err != nil || len(s) <= 80 {
			return q
		}
		return strconv.Quote(Clip(s))
	})
	msg = wordRE.ReplaceAllStringFunc(msg, Clip)
	return clipTo(msg, 512)
}
