package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestRememberCredentialInAnyField: a credential in a tag, a meta value or
// the source is refused, naming the field, and nothing is written; with
// redact it is masked.
func TestRememberCredentialInAnyField(t *testing.T) {
	const token = "gh" + "p_abcdefghijklmnopqrstuvwxyz0123456789"
	eng, now := newEngine(t, false)
	cs := connect(t, eng, now, nil)
	ctx := context.Background()
	for _, c := range []struct {
		args args
		want string
	}{
		{args{"text": "x", "tags": []string{"ops", "token=" + token}}, "EINVALID: tags[1] contains a credential (a GitHub token), so nothing was written"},
		{args{"text": "x", "tags": "ops,token=" + token}, "EINVALID: tags[1] contains a credential"},
		{args{"text": "x", "meta": args{"db_url": "postgres://app:Sup3rS3cret@db/app"}}, "EINVALID: meta.db_url contains a credential (a password in a connection string)"},
		{args{"text": "x", "meta": args{"db": args{"password": "hunter22"}}}, "EINVALID: meta.db.password contains a credential"},
		{args{"text": "x", "source": "https://deploy:Tok3nValue42@git.example.org/o/r"}, "EINVALID: source.uri contains a credential"},
		{args{"text": "x", "session_id": "sess password=hunter22"}, "EINVALID: session_id contains a credential"},
	} {
		res := call(t, cs, "remember", c.args)
		if got := text(res); !res.IsError || !strings.HasPrefix(got, c.want) ||
			strings.Contains(got, token) || strings.Contains(got, "Sup3rS3cret") || strings.Contains(got, "hunter22") {
			t.Errorf("remember %v: %s\nwant %q", c.args, got, c.want)
		}
	}
	if st, _ := eng.Stats(ctx); st.Total != 0 {
		t.Fatalf("refused writes stored %d records", st.Total)
	}

	// update goes through the same check.
	var seed mneme.WriteResult
	structured(t, call(t, cs, "remember", args{"text": "the deploy runs at noon", "tags": "ops"}), &seed)
	for _, c := range []struct {
		args args
		want string
	}{
		{args{"id": seed.ID, "tags": []string{"ops", token}}, "EINVALID: tags[1] contains a credential (a GitHub token)"},
		{args{"id": seed.ID, "meta": args{"db_url": "postgres://app:Sup3rS3cret@db/app"}}, "EINVALID: meta.db_url contains a credential"},
	} {
		if res := call(t, cs, "update", c.args); !res.IsError || !strings.HasPrefix(text(res), c.want) {
			t.Errorf("update %v: %s\nwant %q", c.args, text(res), c.want)
		}
	}
	if r, _ := eng.Get(ctx, seed.ID, mneme.Internal); len(r.Tags) != 1 || r.Meta != nil {
		t.Fatalf("a refused update was stored: %+v", r)
	}

	var w mneme.WriteResult
	structured(t, call(t, cs, "remember", args{"text": "deploy notes", "tags": []string{"token=" + token},
		"meta": args{"db_url": "postgres://app:Sup3rS3cret@db/app"}, "source": "https://deploy:Tok3nValue42@git.example.org/o/r", "redact": true}), &w)
	r, err := eng.Get(ctx, w.ID, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tags[0] != "token=[redacted:github-token]" || string(r.Meta) != `{"db_url":"postgres://app:[REDACTED:connection-string-password]@db/app"}` ||
		r.Source.URI != "https://deploy:[REDACTED:connection-string-password]@git.example.org/o/r" {
		t.Fatalf("redacted record: tags %q meta %s source %+v", r.Tags, r.Meta, r.Source)
	}
}
