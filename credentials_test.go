package mneme_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme"
)

// Made-up credentials; vendor prefixes are split so that this file does not
// itself look like a leak to push-protection scanners.
const (
	ghToken = "gh" + "p_" + "Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf4Ds6Aw0Pe8Yu2Ti"
	oaKey   = "s" + "k-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	pgURL   = "postgres://app:Sup3rS3cret@db:5432/app"
	jwtTok  = "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
		"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0." +
		"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

// credentialFields puts a credential in each string field of a record; the
// secret is what must not be stored, field what the refusal names.
var credentialFields = []struct {
	name   string
	set    func(r *mneme.Record)
	field  string
	secret string
}{
	{"title", func(r *mneme.Record) { r.Title = "deploy with " + ghToken }, "title", ghToken},
	{"text", func(r *mneme.Record) { r.Text = "db password=hunter22" }, "the text", "hunter22"},
	{"text password naming a secret", func(r *mneme.Record) { r.Text = "password=supersecret1" }, "the text", "supersecret1"},
	{"text bare pwd", func(r *mneme.Record) { r.Text = "pwd=Xk9mQ2vLp77" }, "the text", "Xk9mQ2vLp77"},
	{"kind", func(r *mneme.Record) { r.Kind = ghToken }, "kind", ghToken},
	{"key", func(r *mneme.Record) { r.Key = "db/" + pgURL }, "key", "Sup3rS3cret"},
	{"tag", func(r *mneme.Record) { r.Tags = []string{"ops", "prod", "token=" + ghToken} }, "tags[2]", strings.ToLower(ghToken)},
	{"mixed-case tag", func(r *mneme.Record) { r.Tags = []string{oaKey} }, "tags[0]", strings.ToLower(oaKey)},
	{"source uri", func(r *mneme.Record) { r.Source = &mneme.Source{URI: pgURL} }, "source.uri", "Sup3rS3cret"},
	{"source token user", func(r *mneme.Record) {
		r.Source = &mneme.Source{URI: "https://0123456789abcdef0123456789abcdef01234567@github.com/o/r"}
	}, "source.uri", "0123456789abcdef0123456789abcdef01234567"},
	{"source query", func(r *mneme.Record) { r.Source = &mneme.Source{URI: "https://x.test/cb?api_key=abcd1234efgh5678"} },
		"source.uri", "abcd1234efgh5678"},
	{"session_id", func(r *mneme.Record) { r.SessionID = jwtTok }, "session_id", jwtTok},
	{"run_id", func(r *mneme.Record) { r.RunID = "run " + ghToken }, "run_id", ghToken},
	{"speaker", func(r *mneme.Record) { r.Speaker = "bot password=hunter22" }, "speaker", "hunter22"},
	{"meta value", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"db_url":"` + pgURL + `"}`) }, "meta.db_url", "Sup3rS3cret"},
	{"meta named value", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"ticket":"ENG-1","db_password":"hunter22"}`) },
		"meta.db_password", "hunter22"},
	{"meta nested", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"db":{"hosts":["a","` + pgURL + `"]}}`) },
		"meta.db.hosts[1]", "Sup3rS3cret"},
	{"meta key", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"x":{"` + ghToken + `":true}}`) }, "a key in meta.x", ghToken},
	{"meta odd key", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"db url":"` + pgURL + `"}`) }, `meta["db url"]`, "Sup3rS3cret"},
	{"meta named in array", func(r *mneme.Record) { r.Meta = json.RawMessage(`{"api_key":["abcd1234efgh5678"]}`) },
		"meta.api_key[0]", "abcd1234efgh5678"},
}

// advice is the refusal's way out, its hints worded as JSON fields.
const advice = `store it as secret (sensitivity "secret") or mask the values (redact true)`

func TestCredentialInEveryField(t *testing.T) {
	ctx := context.Background()
	for _, tc := range credentialFields {
		t.Run(tc.name, func(t *testing.T) {
			rec := func(s mneme.Sensitivity) *mneme.Record {
				r := &mneme.Record{Text: "a note about the deploy", Sensitivity: s}
				tc.set(r)
				return r
			}
			// Refused, naming the field, and nothing written.
			eng := engine(t)
			_, err := eng.Remember(ctx, []*mneme.Record{rec("")}, mneme.WriteOptions{})
			want := tc.field + " contains a credential ("
			if msg := msg(err); mneme.ErrorCode(err) != mneme.EINVALID || !strings.HasPrefix(msg, want) ||
				!strings.Contains(msg, "so nothing was written: "+advice) {
				t.Fatalf("write = %v, want EINVALID starting %q", err, want)
			}
			if msg := msg(err); strings.Contains(msg, tc.secret) {
				t.Fatalf("the refusal repeats the credential: %s", msg)
			}
			if st, _ := eng.Stats(ctx); st.Total != 0 {
				t.Fatalf("a refused write stored %d records", st.Total)
			}
			if err := mneme.Check(*rec(""), mneme.WriteOptions{}); !strings.HasPrefix(msg(err), want) {
				t.Fatalf("Check = %v, want %q", err, want)
			}

			// Masked with redact, and the record stays valid.
			res, err := eng.Remember(ctx, []*mneme.Record{rec("")}, mneme.WriteOptions{Redact: true})
			if err != nil {
				t.Fatalf("redacted write: %v", err)
			}
			got := stored(t, eng, res.ID, mneme.Internal)
			if strings.Contains(got, tc.secret) || !strings.Contains(strings.ToLower(got), "[redacted:") {
				t.Fatalf("redacted record = %s", got)
			}

			// Accepted as it is when the record is secret.
			res, err = eng.Remember(ctx, []*mneme.Record{rec(mneme.Secret)}, mneme.WriteOptions{})
			if err != nil {
				t.Fatalf("secret write: %v", err)
			}
			if got := stored(t, eng, res.ID, mneme.Secret); !strings.Contains(got, tc.secret) {
				t.Fatalf("secret record lost its value: %s", got)
			}

			// Stored as an older version would have (it checked only the
			// title and the text): the audit finds it alone, by its field.
			old := rec("")
			old.Project, old.Type, old.Status, old.Sensitivity = "default", mneme.Semantic, mneme.Active, mneme.Internal
			if _, err := eng.Store().Put(ctx, []*mneme.Record{old}, mneme.ModeRemember, time.Now()); err != nil {
				t.Fatal(err)
			}
			found, err := eng.AuditCredentials(ctx)
			if err != nil || len(found) != 1 || found[0].ID != old.ID || found[0].Field != strings.TrimPrefix(tc.field, "the ") {
				t.Fatalf("audit = %+v, %v; want %s in %s", found, err, old.ID, tc.field)
			}
			if strings.Contains(found[0].Found, tc.secret) {
				t.Fatalf("the audit repeats the credential: %+v", found[0])
			}
		})
	}
}

// stored returns the record's JSON as read back.
func stored(t *testing.T, eng *mneme.Engine, id string, clearance mneme.Sensitivity) string {
	t.Helper()
	r, err := eng.Get(context.Background(), id, clearance)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	return string(b)
}

func TestCredentialMessage(t *testing.T) {
	err := mneme.Check(mneme.Record{Text: "x", Meta: json.RawMessage(`{"db_url":"` + pgURL + `"}`)}, mneme.WriteOptions{})
	want := "meta.db_url contains a credential (a password in a connection string), so nothing was written: " + advice
	if msg(err) != want {
		t.Fatalf("message = %q\nwant      %q", msg(err), want)
	}
	if h := mneme.Hints(err); !slices.Equal(h, []mneme.Hint{{Field: "sensitivity", Value: "secret"}, {Field: "redact", Value: "true"}}) {
		t.Fatalf("hints = %+v", h)
	}
	// A meta key is named, not taken for a hint.
	err = mneme.Check(mneme.Record{Text: "x", Meta: json.RawMessage(`{"{{sensitivity=public}}":"` + pgURL + `"}`)}, mneme.WriteOptions{})
	if h := mneme.Hints(err); len(h) != 2 || !strings.HasPrefix(msg(err), `meta["{ {sensitivity=public}}"] contains`) {
		t.Fatalf("odd key: %q, hints %+v", msg(err), h)
	}
	// The text keeps its message, lines included; other fields give lines
	// only when they have several.
	for _, tc := range []struct {
		r    mneme.Record
		want string
	}{
		{mneme.Record{Text: "password=hunter22"}, "the text contains a credential (a password assignment on line 1), so nothing was written"},
		{mneme.Record{Text: "x", Title: "a\npassword=hunter22"}, "title contains a credential (a password assignment on line 2)"},
		{mneme.Record{Text: "x", Title: "password=hunter22"}, "title contains a credential (a password assignment), so"},
	} {
		if err := mneme.Check(tc.r, mneme.WriteOptions{}); !strings.HasPrefix(msg(err), tc.want) {
			t.Errorf("message = %q, want %q", msg(err), tc.want)
		}
	}
}

func TestCredentialOrdinaryValues(t *testing.T) {
	meta := `{"ticket":"ENG-12","url":"https://example.com/a?b=c","password_policy":"min 12 characters","key":"ENG-1",` +
		`"token_ttl":3600,"owner":"bob@example.com","nested":{"n":[1,2.50,"x",null,true]}}`
	r := mneme.Record{Text: "Reset the password in the admin panel; the token expires after 1h.", Title: "Password reset",
		Kind: "how-to", Key: "auth/password-reset", Tags: []string{"k8s:prod", "api-key-rotation", "user@host", "Auth"},
		Source:    &mneme.Source{URI: "https://example.com/docs/auth?page=2#reset", LineStart: 3, LineEnd: 9},
		SessionID: "sess-2026-06-01", RunID: "run_42", Speaker: "bob@example.com", Meta: json.RawMessage(meta)}
	for _, redact := range []bool{false, true} {
		if err := mneme.Check(r, mneme.WriteOptions{Redact: redact}); err != nil {
			t.Fatalf("redact %v: %v", redact, err)
		}
	}
	eng := engine(t)
	res, err := eng.Remember(context.Background(), []*mneme.Record{&r}, mneme.WriteOptions{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := eng.Get(context.Background(), res.ID, mneme.Internal)
	if string(got.Meta) != meta || got.Source.URI != r.Source.URI || got.Key != r.Key {
		t.Fatalf("redact changed ordinary values: %s %+v", got.Meta, got.Source)
	}
	for _, uri := range []string{"file:///home/bob/notes.md", "ssh://git@github.com/org/repo", "postgres://app@db:5432/app",
		"https://first.last@example.com/x", "notes/2026-06-01.md"} {
		if err := mneme.Check(mneme.Record{Text: "x", Source: &mneme.Source{URI: uri}}, mneme.WriteOptions{}); err != nil {
			t.Errorf("source %q: %v", uri, err)
		}
	}
}

func TestCredentialRedactMeta(t *testing.T) {
	in := `{"z":"1", "db_url":"` + pgURL + `","a":{"password":"hunter22","n":1.50,"html":"<b>&</b>"},"` + ghToken + `":[true,null]}`
	want := `{"z":"1","db_url":"postgres://app:[REDACTED:connection-string-password]@db:5432/app",` +
		`"a":{"password":"[REDACTED:password-assignment]","n":1.50,"html":"<b>&</b>"},"[REDACTED:github-token]":[true,null]}`
	eng := engine(t)
	r := &mneme.Record{Text: "x", Meta: json.RawMessage(in)}
	res, err := eng.Remember(context.Background(), []*mneme.Record{r}, mneme.WriteOptions{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := eng.Get(context.Background(), res.ID, mneme.Internal)
	if string(got.Meta) != want {
		t.Fatalf("meta = %s\nwant   %s", got.Meta, want)
	}
	// Invalid meta is left to validation, which refuses it as before.
	for _, bad := range []string{`{"db_url":"` + pgURL + `"} x`, `["` + pgURL + `"]`, `{"a":`} {
		err := mneme.Check(mneme.Record{Text: "x", Meta: json.RawMessage(bad)}, mneme.WriteOptions{Redact: true})
		if !strings.Contains(msg(err), "meta must be a JSON object") {
			t.Errorf("meta %s: %v", bad, err)
		}
	}
}

// TestCredentialCheckLeavesCaller: Check works on a copy of the record,
// whose tags, source and meta the caller still holds.
func TestCredentialCheckLeavesCaller(t *testing.T) {
	r := mneme.Record{Text: "x", Tags: []string{"a", "token=" + ghToken}, Source: &mneme.Source{URI: pgURL},
		Meta: json.RawMessage(`{"db_url":"` + pgURL + `"}`)}
	if err := mneme.Check(r, mneme.WriteOptions{Redact: true}); err != nil {
		t.Fatal(err)
	}
	if r.Tags[1] != "token="+ghToken || r.Source.URI != pgURL || !strings.Contains(string(r.Meta), "Sup3rS3cret") {
		t.Fatalf("Check changed the caller's record: %+v %+v %s", r.Tags, r.Source, r.Meta)
	}
}

func TestCredentialMaskLimits(t *testing.T) {
	// A tag that the mask would make too long, and a project, which a mask can't fit.
	tag := "db:" + strings.Repeat("x", 30) + "&password=hunter22"
	err := mneme.Check(mneme.Record{Text: "x", Tags: []string{tag}}, mneme.WriteOptions{Redact: true})
	if msg := msg(err); !strings.HasPrefix(msg, "tags[0] is ") || !strings.Contains(msg, "once its credential (a password assignment) is masked, over the limit of 64") {
		t.Fatalf("long masked tag: %v", err)
	}
	project := "gh" + "p_" + strings.ToLower("Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf4Ds6Aw0Pe8Yu2Ti")
	err = mneme.Check(mneme.Record{Text: "x", Project: project}, mneme.WriteOptions{Redact: true})
	if msg := msg(err); !strings.HasPrefix(msg, "project contains a credential (a GitHub token), which cannot be masked") {
		t.Fatalf("project: %v", err)
	}
	// A masked source URI is still a valid source.
	if err := mneme.Check(mneme.Record{Text: "x", Source: &mneme.Source{URI: pgURL}}, mneme.WriteOptions{Redact: true}); err != nil {
		t.Fatal(err)
	}
}

func TestCredentialBatchNamesRecordAndField(t *testing.T) {
	ctx := context.Background()
	eng := engine(t)
	recs := []*mneme.Record{{Text: "fine"}, {Text: "also fine", Tags: []string{"ok", pgURL}}}
	_, err := eng.Remember(ctx, recs, mneme.WriteOptions{})
	if want := "record 2: tags[1] contains a credential (a password in a connection string)"; !strings.HasPrefix(msg(err), want) {
		t.Fatalf("batch = %v, want %q", err, want)
	}
	var be *mneme.BatchError
	if !errors.As(err, &be) || be.Index != 1 || !strings.HasPrefix(be.Error(), "tags[1] contains") {
		t.Fatalf("batch error = %#v", err)
	}
	_, err = eng.Import(ctx, []*mneme.Record{{Text: "one"}, {Text: "two", Speaker: jwtTok}}, mneme.WriteOptions{})
	if !strings.HasPrefix(msg(err), "record 2: speaker contains a credential (a JWT)") {
		t.Fatalf("import = %v", err)
	}
	if st, _ := eng.Stats(ctx); st.Total != 0 {
		t.Fatalf("refused batches stored %d records", st.Total)
	}
}

func TestCredentialPatch(t *testing.T) {
	ctx := context.Background()
	eng := engine(t, mneme.Record{Text: "the deploy runs at noon", Tags: []string{"ops"}})
	recs, _, _ := eng.List(ctx, mneme.Filter{}, 10, "")
	id := recs[0].ID
	for _, p := range []mneme.Patch{
		{Tags: &[]string{"ops", "token=" + ghToken}},
		{Meta: ptr(json.RawMessage(`{"db_url":"` + pgURL + `"}`))},
		{Key: ptr("db/" + pgURL)},
		{Kind: ptr(ghToken)},
	} {
		if _, err := eng.Patch(ctx, id, p, mneme.Internal); !strings.Contains(msg(err), "contains a credential") {
			t.Fatalf("patch %+v = %v", p, err)
		}
	}
	if got := stored(t, eng, id, mneme.Internal); strings.Contains(got, "Sup3rS3cret") || strings.Contains(got, ghToken) {
		t.Fatalf("a refused patch was stored: %s", got)
	}
	// Masked with redact, in whichever field.
	r, err := eng.Patch(ctx, id, mneme.Patch{Tags: &[]string{"ops", "token=" + ghToken}, Key: ptr("db/" + pgURL), Redact: true}, mneme.Internal)
	if err != nil {
		t.Fatal(err)
	}
	if got := stored(t, eng, r.ID, mneme.Internal); strings.Contains(got, "Sup3rS3cret") || strings.Contains(strings.ToLower(got), strings.ToLower(ghToken)) ||
		strings.Count(strings.ToLower(got), "[redacted:") != 2 {
		t.Fatalf("a redacted patch: %s", got)
	}
	// Made secret in the same patch, it is accepted.
	if _, err := eng.Patch(ctx, id, mneme.Patch{Tags: &[]string{"token=" + ghToken}, Sensitivity: ptr(mneme.Secret)}, mneme.Internal); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

// msg is mneme.ErrorMessage, "" for no error.
func msg(err error) string {
	if err == nil {
		return ""
	}
	return mneme.ErrorMessage(err)
}

func TestCredentialIngest(t *testing.T) {
	ctx := context.Background()
	eng := engine(t)
	files := []mneme.SourceFile{{URI: "/r/a.md", Data: []byte("# A\n\nplain text\n")}}
	// Options' tags are checked before they are lowered (an OpenAI key is mixed case).
	_, err := eng.Ingest(ctx, files, mneme.IngestOptions{Tags: []string{"docs", oaKey}})
	if !strings.HasPrefix(msg(err), "tags[1] contains a credential (an OpenAI API key)") {
		t.Fatalf("ingest with a credential tag = %v", err)
	}
	// A path holding one: refused, and the error does not repeat it.
	bad := []mneme.SourceFile{{URI: "/r/password=hunter22/a.md", Data: []byte("plain text\n")}}
	_, err = eng.Ingest(ctx, bad, mneme.IngestOptions{})
	if msg := msg(err); !strings.Contains(msg, "source.uri contains a credential") || strings.Contains(msg, "hunter22") {
		t.Fatalf("ingest of a path with a credential = %v", err)
	}
	if st, _ := eng.Stats(ctx); st.Total != 0 {
		t.Fatalf("refused ingests stored %d records", st.Total)
	}
	if _, err := eng.Ingest(ctx, append(files, bad...), mneme.IngestOptions{Tags: []string{oaKey}, Redact: true}); err != nil {
		t.Fatal(err)
	}
	recs, _, _ := eng.List(ctx, mneme.Filter{}, 10, "")
	for _, r := range recs {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "hunter22") || strings.Contains(strings.ToLower(string(b)), strings.ToLower(oaKey)) ||
			!slices.Contains(r.Tags, "[redacted:openai-key]") {
			t.Fatalf("redacted ingest stored %s", b)
		}
	}
}

// typicalRecord has every string field filled as an agent writes them.
func typicalRecord() mneme.Record {
	return mneme.Record{
		Title: "Deploy rollback procedure",
		Text: "To roll back a deploy, run `make rollback TAG=v1.42.0` from the ops repo; the script drains the " +
			"blue pool, flips the load balancer to green and waits for health checks (about 90 s). Check the " +
			"dashboard at https://grafana.example.com/d/deploys before and after. If the database migration " +
			"already ran, restore from the nightly snapshot instead: the migration is not reversible. The on-call " +
			"engineer owns the decision; page #ops-oncall if unsure. Tokens for the deploy bot live in the vault.",
		Kind: "procedure", Key: "ops/deploy-rollback", Tags: []string{"ops", "deploy", "rollback", "runbook"},
		Source:    &mneme.Source{URI: "https://github.com/acme/ops/blob/main/docs/rollback.md", LineStart: 12, LineEnd: 40},
		SessionID: "sess-2026-06-01-7f3a", RunID: "run-0192f0c1", Speaker: "ops-agent",
		Meta: json.RawMessage(`{"ticket":"OPS-1234","owner":"alice@example.com","reviewed":true,"version":3,` +
			`"links":{"runbook":"https://wiki.example.com/ops/rollback","dashboard":"https://grafana.example.com/d/deploys"},"services":["api","web","worker"]}`),
	}
}

// BenchmarkCheckRecord is the write-time check (credentials in every field,
// then validation) of a typical record; the title+text sub-benchmark is the
// same record with only those fields, which is what was scanned before.
func BenchmarkCheckRecord(b *testing.B) {
	full := typicalRecord()
	short := mneme.Record{Title: full.Title, Text: full.Text}
	for _, bc := range []struct {
		name string
		r    mneme.Record
	}{{"all-fields", full}, {"title+text", short}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := mneme.Check(bc.r, mneme.WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("meta-64KiB", func(b *testing.B) {
		var m strings.Builder
		m.WriteString(`{"n":0`)
		for i := 0; m.Len() < mneme.MaxMetaBytes-200; i++ {
			m.WriteString(`,"field_` + strconv.Itoa(i) + `":"https://example.com/a?b=c and some words"`)
		}
		m.WriteString("}")
		r := mneme.Record{Text: "x", Meta: json.RawMessage(m.String())}
		b.SetBytes(int64(m.Len()))
		for b.Loop() {
			if err := mneme.Check(r, mneme.WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
