// Package access turns the server's configured bearer tokens into what a
// caller may do: read or write, in which projects. The HTTP API and MCP
// over HTTP share it through the MCP SDK's bearer-token middleware, which
// puts the verified token's info in the request context (and in MCP
// requests' Extra.TokenInfo).
package access

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mneme-ai/mneme"
)

// Token is one configured bearer token (config.json, "server.tokens").
type Token struct {
	Name     string   `json:"name"`      // for logs and metrics; never the token
	Token    string   `json:"token"`     // the secret itself, or:
	TokenEnv string   `json:"token_env"` // the environment variable holding it
	Projects []string `json:"projects"`  // empty: every project
	Access   string   `json:"access"`    // read or write (write includes read)
}

// Scope is what a caller may do.
type Scope struct {
	Name     string
	Projects []string // empty: every project
	Write    bool
}

// Open is the scope of a server without tokens (loopback only).
var Open = Scope{Name: "open", Write: true}

// Project reports whether the scope covers project.
func (s Scope) Project(project string) bool {
	return len(s.Projects) == 0 || slices.Contains(s.Projects, project)
}

// EFORBIDDEN is the code of a call the caller's token does not allow.
const EFORBIDDEN = "EFORBIDDEN"

// Resolve is the project a call works in under s: the one it names, which
// s must cover; else the only project of a token limited to one; else ""
// (every project) for a token limited to none. A token limited to several
// must name one.
func (s Scope) Resolve(project string) (string, error) {
	switch {
	case project != "" && !s.Project(project):
		return "", mneme.Errorf(EFORBIDDEN, "token %q does not cover project %q: it covers %s", s.Name, project, strings.Join(s.Projects, ", "))
	case project != "" || len(s.Projects) == 0:
		return project, nil
	case len(s.Projects) == 1:
		return s.Projects[0], nil
	}
	return "", mneme.Invalid("token %q covers several projects (%s): name one with project", s.Name, strings.Join(s.Projects, ", "))
}

// Stats is st as s may see it: a token limited to projects sees only
// theirs and their total (the store-wide counters of superseded, expired
// and secret records and documents would tell about other projects).
func (s Scope) Stats(st mneme.Stats) mneme.Stats {
	if len(s.Projects) == 0 {
		return st
	}
	mine := mneme.Stats{Projects: []mneme.ProjectStats{}}
	for _, p := range st.Projects {
		if s.Project(p.Project) {
			mine.Projects = append(mine.Projects, p)
			mine.Total += p.Total
		}
	}
	return mine
}

const projectsKey = "projects"

// Check resolves each token's secret (from the environment when named) and
// validates its scope.
func Check(tokens []Token, getenv func(string) string) ([]Token, error) {
	out := make([]Token, len(tokens))
	for i, t := range tokens {
		if t.TokenEnv != "" {
			t.Token = getenv(t.TokenEnv)
			if t.Token == "" {
				return nil, fmt.Errorf("server token %q: the variable %s is not set", t.Name, t.TokenEnv)
			}
		}
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("server token %d has no name: name each token (it appears in logs instead of the secret)", i+1)
		case len(t.Token) < 16:
			return nil, fmt.Errorf("server token %q is shorter than 16 characters: use a long random secret (openssl rand -hex 32)", t.Name)
		case t.Access != "read" && t.Access != "write":
			return nil, fmt.Errorf("server token %q: access %q is not read or write", t.Name, t.Access)
		}
		out[i] = t
	}
	return out, nil
}

// Verifier checks a bearer token against the configured ones in constant
// time and returns its scope as MCP token info.
func Verifier(tokens []Token) auth.TokenVerifier {
	return func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		for _, t := range tokens {
			if subtle.ConstantTimeCompare([]byte(token), []byte(t.Token)) == 1 {
				scopes := []string{"read"}
				if t.Access == "write" {
					scopes = append(scopes, "write")
				}
				return &auth.TokenInfo{Scopes: scopes, UserID: t.Name, Expiration: time.Now().Add(24 * time.Hour),
					Extra: map[string]any{projectsKey: t.Projects}}, nil
			}
		}
		return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
	}
}

// FromInfo is the scope of verified token info; nil info (a server without
// tokens) is Open.
func FromInfo(info *auth.TokenInfo) Scope {
	if info == nil {
		return Open
	}
	projects, _ := info.Extra[projectsKey].([]string)
	return Scope{Name: info.UserID, Projects: projects, Write: slices.Contains(info.Scopes, "write")}
}

// FromContext is the scope of the request whose context ctx is.
func FromContext(ctx context.Context) Scope { return FromInfo(auth.TokenInfoFromContext(ctx)) }
