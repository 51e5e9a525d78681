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
	// Clearance is the most sensitive records the token may read and
	// forget: internal (the default) or secret.
	Clearance mneme.Sensitivity `json:"clearance,omitempty"`
}

// Open is the scope of a server without tokens (loopback only): every
// project, read and write, up to internal records (secret ones stay with
// the CLI, or a token with clearance secret).
var Open = mneme.Scope{Name: "open", Write: true, Clearance: mneme.Internal}

const (
	projectsKey  = "projects"
	clearanceKey = "clearance"
)

// Check resolves each token's secret (from the environment when named) and
// validates its scope. Mistakes that would silently change what a token
// may do are errors: two tokens with the same secret (the first would
// win, and a write token could turn read-only), two with the same name
// (logs and MCP sessions tell tokens apart by name), a project that is not
// a valid name, both token and token_env set. Messages name tokens, never
// their secrets.
func Check(tokens []Token, getenv func(string) string) ([]Token, error) {
	out := make([]Token, len(tokens))
	named := map[string]bool{}
	bySecret := map[string]string{} // secret -> the name of the first token with it
	for i, t := range tokens {
		name := mneme.Clip(t.Name)
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("server token %d has no name: name each token (it appears in logs instead of the secret)", i+1)
		case named[t.Name]:
			return nil, fmt.Errorf("two server tokens are named %q: give each token its own name (logs and MCP sessions tell tokens apart by it)", name)
		case t.Token != "" && t.TokenEnv != "":
			return nil, fmt.Errorf("server token %q sets both token and token_env: keep one (token_env, to keep the secret out of config.json)", name)
		}
		named[t.Name] = true
		if t.TokenEnv != "" {
			t.Token = getenv(t.TokenEnv)
			if t.Token == "" {
				return nil, fmt.Errorf("server token %q: the variable %s is not set", name, mneme.Clip(t.TokenEnv))
			}
		}
		switch {
		case len(t.Token) < 16:
			return nil, fmt.Errorf("server token %q is shorter than 16 characters: use a long random secret (openssl rand -hex 32)", name)
		case t.Access != "read" && t.Access != "write":
			return nil, fmt.Errorf("server token %q: access %q is not read or write", name, mneme.Clip(t.Access))
		case t.Clearance != "" && t.Clearance != mneme.Internal && t.Clearance != mneme.Secret:
			return nil, fmt.Errorf("server token %q: clearance %q is not internal or secret", name, mneme.Clip(string(t.Clearance)))
		}
		if first, ok := bySecret[t.Token]; ok {
			return nil, fmt.Errorf("server tokens %q and %q have the same secret: give each token its own (a caller would get the first one's access)", mneme.Clip(first), name)
		}
		bySecret[t.Token] = t.Name
		for _, p := range t.Projects {
			if err := mneme.ValidateProject(p); err != nil {
				return nil, fmt.Errorf("server token %q: %s", name, mneme.ErrorMessage(err))
			}
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
					Extra: map[string]any{projectsKey: t.Projects, clearanceKey: t.Clearance}}, nil
			}
		}
		return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
	}
}

// FromInfo is the scope of verified token info; nil info (a server without
// tokens) is Open.
func FromInfo(info *auth.TokenInfo) mneme.Scope {
	if info == nil {
		return Open
	}
	projects, _ := info.Extra[projectsKey].([]string)
	clearance, _ := info.Extra[clearanceKey].(mneme.Sensitivity)
	if clearance == "" {
		clearance = mneme.Internal
	}
	return mneme.Scope{Name: info.UserID, Projects: projects, Write: slices.Contains(info.Scopes, "write"), Clearance: clearance}
}

// FromContext is the scope of the request whose context ctx is.
func FromContext(ctx context.Context) mneme.Scope { return FromInfo(auth.TokenInfoFromContext(ctx)) }
