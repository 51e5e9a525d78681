package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInput: each bad input exits 2 (ENOTFOUND: 1) with a message that
// names the problem, and leaves the store exactly as it was.
func TestBadInput(t *testing.T) {
	home := t.TempDir()
	id := decode[writeJSON](t, ok(t, home, "remember", "seed memory", "--json")).ID
	secretID := decode[writeJSON](t, ok(t, home, "remember", "a secret seed", "--sensitivity", "secret", "--json")).ID
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		return p
	}
	huge := strings.Repeat("a", 1<<20+1)
	notDir := file("plain-file", "x")
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"empty text", "", []string{"remember", ""}, 2, "text is empty"},
		{"whitespace text", "", []string{"remember", "  \t\n "}, 2, "text is empty"},
		{"invalid utf-8", "bad \xff\xfe bytes", []string{"remember", "-"}, 2, "not valid UTF-8"},
		{"text over limit", huge, []string{"remember", "-"}, 2, "text is 1,048,577 bytes; the limit for one record is 1 MiB"},
		{"text of 1.5 MiB", strings.Repeat("x", 3<<19), []string{"remember", "-"}, 2, "text is 1.5 MiB; the limit for one record is 1 MiB"},
		{"unknown type", "", []string{"remember", "x", "--type", "memoir"}, 2, `type "memoir" is not valid: use one of episodic, semantic, procedural`},
		{"unknown status", "", []string{"remember", "x", "--status", "done"}, 2, `status "done" is not valid`},
		{"unknown sensitivity", "", []string{"remember", "x", "--sensitivity", "top"}, 2, `sensitivity "top" is not valid`},
		{"unknown provenance", "", []string{"remember", "x", "--provenance", "rumour"}, 2, `provenance "rumour" is not valid`},
		{"bad project", "", []string{"remember", "x", "--project", "My Project"}, 2, `project "My Project" is not a valid name`},
		{"bad project in recall", "", []string{"recall", "x", "--project", "-x"}, 2, "not a valid name"},
		{"since after until", "", []string{"recall", "x", "--since", "2026-02-01", "--until", "2026-01-01"}, 2, "is after until"},
		{"stray argument to stats", "", []string{"stats", "ops"}, 2, `no arguments, only flags, but got "ops"`},
		{"stray argument to serve", "", []string{"serve", "127.0.0.1:7077"}, 2, `got "127.0.0.1:7077": run ` + "`mneme serve -h`"},
		{"bad serve address", "", []string{"serve", "--addr", "nonsense"}, 2, `--addr "nonsense" is not host:port`},
		{"bad time", "", []string{"remember", "x", "--at", "last tuesday"}, 2, `at "last tuesday" is not a time`},
		{"bad since", "", []string{"recall", "x", "--since", "soon"}, 2, `since "soon" is not a time`},
		{"bad ttl", "", []string{"remember", "x", "--ttl", "forever"}, 2, `ttl "forever" is not a positive duration`},
		{"negative ttl", "", []string{"remember", "x", "--ttl", "-5m"}, 2, "not a positive duration"},
		{"k zero", "", []string{"recall", "x", "--k", "0"}, 2, "--k 0 must be at least 1"},
		{"k negative", "", []string{"recall", "x", "--k", "-3"}, 2, "must be at least 1"},
		{"k not a number", "", []string{"recall", "x", "--k", "ten"}, 2, "invalid value"},
		{"unknown flag", "", []string{"recall", "x", "--colour"}, 2, "flag provided but not defined: -colour"},
		{"unknown command", "", []string{"remembr", "x"}, 2, `unknown command "remembr"`},
		{"bad meta", "", []string{"remember", "x", "--meta", "novalue"}, 2, "is not key=value"},
		{"meta filter without =", "", []string{"recall", "x", "--meta", "tenant"}, 2, `meta filter "tenant" is not KEY=VALUE`},
		{"meta filter empty key", "", []string{"list", "--meta", "=acme"}, 2, "has an empty key"},
		{"meta filter on forget", "", []string{"forget", "--meta", "tenant", "--yes"}, 2, "is not KEY=VALUE"},
		{"meta filter on prune", "", []string{"prune", "--expired", "--meta", " =x", "--yes"}, 2, "has an empty key"},
		{"meta filter on export", "", []string{"export", "--meta", "tenant"}, 2, "is not KEY=VALUE"},
		{"meta filter on context", "", []string{"context", "x", "--meta", "=x"}, 2, "has an empty key"},
		{"meta filter object in a request", "", []string{"recall", "--request", file("m1.json", `{"query":"x","meta":{"tenant":{"id":1}}}`)}, 2, "must be a string, number or boolean, not object"},
		{"query of stopwords only punctuation", "", []string{"recall", "?!"}, 2, "has no words"},
		{"unknown mode", "", []string{"recall", "x", "--mode", "semantic"}, 2, `mode "semantic" is not one of hybrid, vector, lexical`},
		{"alpha out of range", "", []string{"recall", "x", "--alpha", "2"}, 2, "alpha 2 is out of range"},
		{"bad half-life", "", []string{"recall", "x", "--half-life", "soon"}, 2, `half_life "soon" is not a positive duration`},
		{"mmr out of range", "", []string{"recall", "x", "--mmr", "-0.5"}, 2, "mmr -0.5 is out of range"},
		{"request blank hypothesis", "", []string{"recall", "--request", file("h1.json", `{"query":"x","hyde":{"hypothesis":" ","query":"x","generator_id":"me"}}`)}, 2, "hyde.hypothesis is blank"},
		{"request hypothesis for another query", "", []string{"context", "--request", file("h3.json", `{"query":"x","hyde":{"hypothesis":"y","query":"z","generator_id":"me"}}`)}, 2, `hyde.query "z" is not the request's query "x"`},
		{"request hypothesis without its query", "", []string{"recall", "--request", file("h4.json", `{"query":"x","hyde":{"hypothesis":"y","generator_id":"me"}}`)}, 2, "hyde.query is blank"},
		{"request hyde unknown field", "", []string{"recall", "--request", file("h2.json", `{"query":"x","hyde":{"text":"y"}}`)}, 2, `hyde: unknown field "text": allowed fields are hypothesis, query, generator_id, generator_version`},
		{"request unknown field", "", []string{"recall", "--request", file("r1.json", `{"query":"x","limit":3}`)}, 2, `unknown field "limit": allowed fields are id, query, project`},
		{"request wrong type", "", []string{"recall", "--request", file("r2.json", `{"query":"x","k":"3"}`)}, 2, `field "k" must be a number, not string`},
		{"request two objects", "", []string{"recall", "--request", file("r3.json", `{"query":"x"} {"query":"y"}`)}, 2, "send one object"},
		{"request since after until", "", []string{"recall", "--request", file("r4.json", `{"query":"x","since":"2026-02-01","until":"2026-01-01"}`)}, 2, "is after until"},
		{"batch bad line", "", []string{"recall", "--batch", file("b.jsonl", "{\"query\":\"x\"}\n{\"query\":\"y\",\"k\":[1]}\n")}, 2, "line 2: field \"k\" must be a number"},
		{"batch negative k", "", []string{"recall", "--batch", file("b2.jsonl", "{\"query\":\"x\",\"k\":-1}\n")}, 2, "line 1: k -1 is out of range: use 1 to 1000"},
		{"batch with request flags", "", []string{"recall", "--batch", file("b3.jsonl", "{\"query\":\"x\"}\n"), "--mode", "lexical", "--k", "3", "--report"}, 2,
			`--k, --mode cannot go with a request file: put "k", "mode" in the request instead`},
		{"request with a filter flag", "", []string{"recall", "--request", file("r5.json", `{"query":"x"}`), "--include-superseded"}, 2, `put "include_superseded" in the request`},
		{"import unknown field", "", []string{"import", file("i1.jsonl", "{\"text\":\"fine\"}\n{\"text\":\"x\",\"colour\":\"red\"}\n")}, 2, `line 2: unknown field "colour"`},
		{"import wrong type", "", []string{"import", file("i2.jsonl", `{"text":"x","tags":"a"}`)}, 2, `line 1: field "tags" must be an array`},
		{"import bad enum", "", []string{"import", file("i3.jsonl", "{\"text\":\"ok\"}\n\n{\"text\":\"x\",\"type\":\"dream\"}\n")}, 2, `line 3: type "dream" is not valid`},
		{"import bad time", "", []string{"import", file("i7.jsonl", `{"text":"x","created_at":"yesterday"}`)}, 2, `line 1: time "yesterday" is not RFC 3339`},
		{"import bad json", "", []string{"import", file("i4.jsonl", `{"text":`)}, 2, "line 1: "},
		{"import credential", "", []string{"import", file("i5.jsonl", "{\"text\":\"ok one\"}\n{\"text\":\"token ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}\n")}, 2, "line 2: the text contains a credential"},
		{"credential in a tag", "", []string{"remember", "x", "--tags", "ops,token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, 2, "tags[1] contains a credential (a GitHub token), so nothing was written"},
		{"credential in meta", "", []string{"remember", "x", "--meta", "db_url=postgres://app:Sup3rS3cret@db/app"}, 2, "meta.db_url contains a credential (a password in a connection string)"},
		{"credential in source", "", []string{"remember", "x", "--source", "https://deploy:Tok3nValue42@git.example.org/o/r"}, 2, "source.uri contains a credential"},
		{"credential in speaker", "", []string{"remember", "x", "--speaker", "bot password=hunter22"}, 2, "speaker contains a credential"},
		{"update credential in tags", "", []string{"update", id, "--tags", "ops,token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, 2, "tags[1] contains a credential (a GitHub token)"},
		{"update credential in meta", "", []string{"update", id, "--meta", "db_url=postgres://app:Sup3rS3cret@db/app"}, 2, "meta.db_url contains a credential"},
		{"import credential in meta", "", []string{"import", file("i8.jsonl", "{\"text\":\"ok one\"}\n{\"text\":\"ok two\",\"meta\":{\"db\":{\"password\":\"hunter22\"}}}\n")}, 2, "line 2: meta.db.password contains a credential"},
		{"ingest credential in tags", "", []string{"ingest", file("doc.md", "# Doc\n\nplain\n"), "--tags", "docs,api_key=abcd1234efgh5678"}, 2, "tags[1] contains a credential"},
		{"import hash mismatch", "", []string{"import", file("i6.jsonl", `{"text":"x","content_hash":"abc"}`)}, 2, "content_hash does not match"},
		{"get unknown id", "", []string{"get", "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}, 1, "no record with id"},
		{"get malformed id", "", []string{"get", "nope"}, 2, "is not a record id"},
		{"forget unknown id", "", []string{"forget", id, "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e"}, 1, "nothing was forgotten"},
		{"forget nothing", "", []string{"forget"}, 2, "no ids given"},
		{"bad cursor", "", []string{"list", "--cursor", "zzz"}, 2, "cursor"},
		{"bad limit", "", []string{"list", "--limit", "0"}, 2, "limit 0 is out of range"},
		{"ingest missing path", "", []string{"ingest", filepath.Join(dir, "nope")}, 2, "nope"},
		{"ingest bad chunk size", "", []string{"ingest", dir, "--chunk-tokens", "4"}, 2, "chunk size 4"},
		{"prune without mode", "", []string{"prune"}, 2, "--expired"},
		{"link to a missing record", "", []string{"link", id, "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "--rel", "relates_to"}, 2, "the link's target: no record with id"},
		{"link to a secret record without clearance", "", []string{"link", id, secretID, "--rel", "relates_to"}, 2, "the link's target: no record with id"},
		{"link unknown relation", "", []string{"link", id, secretID, "--rel", "inspired_by"}, 2, `relation "inspired_by" is not valid: use one of derived_from, supersedes, relates_to, follows`},
		{"link without relation", "", []string{"link", id, secretID}, 2, "a link needs a relation"},
		{"link one id", "", []string{"link", id, "--rel", "follows"}, 2, "link takes two record ids"},
		{"link to itself", "", []string{"link", id, id, "--rel", "follows"}, 2, "cannot link to itself"},
		{"unlink malformed id", "", []string{"unlink", id, "nope"}, 2, "is not a record id"},
		{"context reusable out of range", "", []string{"context", "x", "--reusable", "51"}, 2, "reusable 51 is out of range"},
		{"home cannot be created", "", []string{"remember", "x", "--home", filepath.Join(notDir, "sub")}, 2, "cannot create the data directory"},
	}
	before := ok(t, home, "export", "--clearance", "secret")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mneme(t, home, c.stdin, append(c.args, "--json")...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", r.code, c.code, r.stderr)
			}
			e := decode[struct {
				Error struct{ Code, Message string }
			}](t, r.stderr).Error
			if !strings.HasPrefix(e.Code, "E") || !strings.Contains(e.Message, c.want) {
				t.Fatalf("stderr = %s\nwant a JSON error containing %q", r.stderr, c.want)
			}
			if r.stdout != "" {
				t.Fatalf("stdout = %q, want nothing", r.stdout)
			}
			if after := ok(t, home, "export", "--clearance", "secret"); after != before {
				t.Fatalf("the store changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

func TestHumanErrorsAndHelp(t *testing.T) {
	home := t.TempDir()
	r := mneme(t, home, "", "remember", "")
	if r.code != 2 || r.stderr != "mneme remember: text is empty: give the memory some text\n" {
		t.Fatalf("human error = %d %q", r.code, r.stderr)
	}
	if r := mneme(t, home, "", "recall", "-h"); r.code != 0 || !strings.Contains(r.stdout, "--all-tags") {
		t.Fatalf("recall -h = %d %q", r.code, r.stdout)
	}
	if r := mneme(t, home, "", "help"); r.code != 0 || !strings.Contains(r.stdout, "remember") {
		t.Fatalf("help = %d %q", r.code, r.stdout)
	}
}
