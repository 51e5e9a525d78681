package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/mneme-ai/mneme"
)

func TestTokens(t *testing.T) {
	env := map[string]string{"CI_TOKEN": "0123456789abcdef-ci"}
	tokens, err := Check([]Token{
		{Name: "agent", Token: "0123456789abcdef-agent", Access: "write", Projects: []string{"a"}},
		{Name: "ci", TokenEnv: "CI_TOKEN", Access: "read"},
	}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	verify := Verifier(tokens)
	info, err := verify(context.Background(), "0123456789abcdef-agent", nil)
	if s := FromInfo(info); err != nil || !s.Write || s.Name != "agent" || !s.Covers("a") || s.Covers("b") {
		t.Fatalf("agent scope = %+v, %v", s, err)
	}
	info, err = verify(context.Background(), "0123456789abcdef-ci", nil)
	if s := FromInfo(info); err != nil || s.Write || !s.Covers("anything") {
		t.Fatalf("ci scope = %+v, %v", s, err)
	}
	if _, err := verify(context.Background(), "0123456789abcdef-nope", nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("unknown token: %v", err)
	}
	if s := FromInfo(nil); s.Name != "open" || !s.Write || !s.Covers("any") {
		t.Fatalf("no token info must be the open scope: %+v", s)
	}
	for _, c := range []struct {
		tok  Token
		want string
	}{
		{Token{Token: "0123456789abcdef", Access: "read"}, "has no name"},
		{Token{Name: "x", Token: "short", Access: "read"}, "shorter than 16"},
		{Token{Name: "x", Token: "0123456789abcdef", Access: "admin"}, `access "admin" is not read or write`},
		{Token{Name: "x", TokenEnv: "MISSING", Access: "read"}, "MISSING is not set"},
	} {
		if _, err := Check([]Token{c.tok}, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.tok, err, c.want)
		}
	}
}

// TestCheckRefuses: configuration mistakes that would silently change what
// a token may do are errors that name the tokens, never their secrets.
func TestCheckRefuses(t *testing.T) {
	const secret = "0123456789abcdef-shared"
	env := map[string]string{"SHARED": secret, "OTHER": "0123456789abcdef-other"}
	getenv := func(k string) string { return env[k] }
	huge := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		name   string
		tokens []Token
		want   string
	}{
		{"same secret", []Token{{Name: "admin", Token: secret, Access: "write"}, {Name: "ci", Token: secret, Access: "read"}},
			`server tokens "admin" and "ci" have the same secret`},
		{"same secret through the environment", []Token{{Name: "admin", Token: secret, Access: "write"}, {Name: "ci", TokenEnv: "SHARED", Access: "read"}},
			`server tokens "admin" and "ci" have the same secret`},
		{"same name", []Token{{Name: "ci", Token: secret, Access: "write"}, {Name: "ci", TokenEnv: "OTHER", Access: "read"}},
			`two server tokens are named "ci"`},
		{"path as project", []Token{{Name: "ci", Token: secret, Access: "read", Projects: []string{"shop", "../x"}}},
			`server token "ci": project "../x" is not a valid name`},
		{"empty project", []Token{{Name: "ci", Token: secret, Access: "read", Projects: []string{""}}},
			`server token "ci": project "" is not a valid name`},
		{"capitals in project", []Token{{Name: "ci", Token: secret, Access: "read", Projects: []string{"Shop"}}},
			`project "Shop" is not a valid name`},
		{"token and token_env", []Token{{Name: "ci", Token: secret, TokenEnv: "OTHER", Access: "read"}},
			`server token "ci" sets both token and token_env: keep one`},
		{"token and an unset token_env", []Token{{Name: "ci", Token: secret, TokenEnv: "MISSING", Access: "read"}},
			`sets both token and token_env`},
		{"huge values", []Token{{Name: huge, Token: secret, Access: huge}}, "is not read or write"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Check(c.tokens, getenv)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check = %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "0123456789abcdef") || len(err.Error()) > 1024 {
				t.Fatalf("the message shows a secret or is unbounded: %.300s", err)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	one := mneme.Scope{Name: "one", Projects: []string{"a"}}
	two := mneme.Scope{Name: "two", Projects: []string{"a", "b"}}
	for _, c := range []struct {
		scope     mneme.Scope
		asked     string
		want      string
		code, msg string // the error's, "" for none
	}{
		{Open, "", "", "", ""},
		{Open, "x", "x", "", ""},
		{one, "", "a", "", ""},
		{one, "a", "a", "", ""},
		{one, "b", "", mneme.EFORBIDDEN, `token "one" does not cover project "b": it covers a`},
		{two, "b", "b", "", ""},
		{two, "", "", mneme.EINVALID, "covers several projects (a, b): name one"},
	} {
		got, err := c.scope.Resolve(c.asked)
		msg := ""
		if err != nil {
			msg = mneme.ErrorMessage(err)
		}
		if got != c.want || mneme.ErrorCode(err) != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s.Resolve(%q) = %q, %v; want %q, code %q %q", c.scope.Name, c.asked, got, err, c.want, c.code, c.msg)
		}
	}
}

func TestScopeStats(t *testing.T) {
	st := mneme.Stats{Total: 6, Secret: 2, Documents: 1, Projects: []mneme.ProjectStats{{Project: "a", Total: 1}, {Project: "b", Total: 2}, {Project: "c", Total: 3}}}
	if got := Open.Stats(st); got.Total != 6 || got.Secret != 2 || len(got.Projects) != 3 {
		t.Errorf("an open scope sees everything: %+v", got)
	}
	got := mneme.Scope{Name: "ac", Projects: []string{"a", "c"}}.Stats(st)
	if got.Total != 4 || got.Secret != 0 || got.Documents != 0 || len(got.Projects) != 2 || got.Projects[1].Project != "c" {
		t.Errorf("a scope limited to a and c: %+v", got)
	}
}
