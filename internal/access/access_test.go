package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
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
	if s := FromInfo(info); err != nil || !s.Write || s.Name != "agent" || !s.Project("a") || s.Project("b") {
		t.Fatalf("agent scope = %+v, %v", s, err)
	}
	info, err = verify(context.Background(), "0123456789abcdef-ci", nil)
	if s := FromInfo(info); err != nil || s.Write || !s.Project("anything") {
		t.Fatalf("ci scope = %+v, %v", s, err)
	}
	if _, err := verify(context.Background(), "0123456789abcdef-nope", nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("unknown token: %v", err)
	}
	if s := FromInfo(nil); s.Name != "open" || !s.Write || !s.Project("any") {
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
