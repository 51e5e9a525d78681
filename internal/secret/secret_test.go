package secret

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Example secrets are made up. Vendor prefixes are split with + so that this
// file does not itself look like a leaked token to push-protection scanners.
var (
	awsID     = "AKIAIOSFODNN7EXAMPLE" // AWS's documented example
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	ghp       = "gh" + "p_" + "Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf4Ds6Aw0Pe8Yu2Ti"
	ghPAT     = "github" + "_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz012345"
	xoxb      = "xo" + "xb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOp"
	slackHook = "T0000FAKE/B0000FAKE/" + "AbCdEfGhIjKlMnOpQrStUvWx"
	openai    = "s" + "k-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	openaiOld = "s" + "k-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBaZx9Yw8Vu7Ts6"
	anthropic = "s" + "k-ant-" + "api03-Fake0Key1For2Tests3Only4Abc5Def6Ghi7Jkl8-AA"
	google    = "AI" + "za" + "SyFAKE0123456789abcdefghijklmnopqrs"
	stripe    = "s" + "k_live_" + "51FakeKeyForTests0123456789abc"
	stripeRK  = "r" + "k_live_" + "51FakeRestricted0123456789"
	jwt       = "ey" + "JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
		"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0." +
		"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemBody = "MIIEowIBAAKCAQEAfakefakefakefakefakefakefakefakefakefakefakefake\n" +
		"dGhpcyBpcyBub3QgYSByZWFsIGtleSwganVzdCBhIHRlc3QgZml4dHVyZQ==\n"
)

func pem(label, body string) string {
	return "-----" + "BEGIN " + label + "-----\n" + body + "-----END " + label + "-----"
}

func TestScan(t *testing.T) {
	rsa := pem("RSA PRIVATE KEY", pemBody)
	tests := []struct {
		name, in string
		want     []string // "kind=value"
	}{
		// private keys
		{"pem rsa", "key:\n" + rsa + "\nthanks", []string{"private-key=" + rsa}},
		{"pem ec", pem("EC PRIVATE KEY", pemBody), []string{"private-key=" + pem("EC PRIVATE KEY", pemBody)}},
		{"pem openssh", pem("OPENSSH PRIVATE KEY", pemBody), []string{"private-key=" + pem("OPENSSH PRIVATE KEY", pemBody)}},
		{"pem dsa", pem("DSA PRIVATE KEY", pemBody), []string{"private-key=" + pem("DSA PRIVATE KEY", pemBody)}},
		{"pem pkcs8 encrypted", pem("ENCRYPTED PRIVATE KEY", pemBody), []string{"private-key=" + pem("ENCRYPTED PRIVATE KEY", pemBody)}},
		{"pem pgp", pem("PGP PRIVATE KEY BLOCK", "Version: GnuPG v2\n\n"+pemBody),
			[]string{"private-key=" + pem("PGP PRIVATE KEY BLOCK", "Version: GnuPG v2\n\n"+pemBody)}},
		{"pem legacy encrypted", pem("RSA PRIVATE KEY", "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n"+pemBody),
			[]string{"private-key=" + pem("RSA PRIVATE KEY", "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\n"+pemBody)}},
		{"pem truncated", "-----" + "BEGIN PRIVATE KEY-----\n" + pemBody + "\nThat was all I had.",
			[]string{"private-key=-----" + "BEGIN PRIVATE KEY-----\n" + strings.TrimSpace(pemBody)}},
		{"pem in json", `{"private_key": "-----` + `BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n"}`,
			[]string{`private-key=-----` + `BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----`}},
		{"public key and cert ignored", "-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----", nil},

		// vendor tokens
		{"aws key id", "id " + awsID + " in prod", []string{"aws-access-key-id=" + awsID}},
		{"aws key id glued to word", "X" + awsID, nil},
		{"aws asia", "ASIAY34FZKBOKMUTVV7A", []string{"aws-access-key-id=ASIAY34FZKBOKMUTVV7A"}},
		{"aws filler", "AKIAXXXXXXXXXXXXXXXX", nil},
		{"aws secret assigned", "aws_secret_access_key = " + awsSecret, []string{"aws-secret-access-key=" + awsSecret}},
		{"aws secret json", `"SecretAccessKey": "` + awsSecret + `"`, []string{"aws-secret-access-key=" + awsSecret}},
		{"aws pair on one line", awsID + " / " + awsSecret,
			[]string{"aws-access-key-id=" + awsID, "aws-secret-access-key=" + awsSecret}},
		{"git sha is not an aws secret", awsID + " at commit 3f786850e387550fdab836ed7e6dc881de23001b", []string{"aws-access-key-id=" + awsID}},
		{"github classic", "GITHUB_TOKEN=" + ghp, []string{"github-token=" + ghp}},
		{"github fine grained", "use " + ghPAT, []string{"github-token=" + ghPAT}},
		{"github too short", "gh" + "p_abc123", nil},
		{"slack bot", "token " + xoxb + " ok", []string{"slack-token=" + xoxb}},
		{"slack webhook", "post to https://hooks.slack.com/services/" + slackHook, []string{"slack-token=" + slackHook}},
		{"openai project", "OPENAI_API_KEY=" + openai, []string{"openai-key=" + openai}},
		{"openai legacy quoted", `key = "` + openaiOld + `"`, []string{"openai-key=" + openaiOld}},
		{"sk- inside words", "run the disk-cleanup task-runner and sk-learn-text-classification-pipeline", nil},
		{"anthropic", "ANTHROPIC_API_KEY='" + anthropic + "'", []string{"anthropic-key=" + anthropic}},
		{"google", "maps key " + google + ".", []string{"google-api-key=" + google}},
		{"stripe", "stripe: " + stripe + ", restricted " + stripeRK, []string{"stripe-key=" + stripe, "stripe-key=" + stripeRK}},
		{"jwt", "Authorization: Bearer " + jwt, []string{"jwt=" + jwt}},
		{"unsigned jwt", "ey" + "JhbGciOiJub25lIn0.eyJzdWIiOiIxMjMifQ.", nil},

		// password assignments
		{"password unquoted", "password=hunter2", []string{"password-assignment=hunter2"}},
		{"passwd yaml", "db:\n  passwd: hunter2\n", []string{"password-assignment=hunter2"}},
		{"pwd quoted", `pwd = "p@ss w0rd"`, []string{"password-assignment=p@ss w0rd"}},
		{"env upper with command", "PGPASSWORD=Tr0ub4dor psql -h db", []string{"password-assignment=Tr0ub4dor"}},
		{"json password", `{"user":"bob","password":"c0rrect-h0rse"}`, []string{"password-assignment=c0rrect-h0rse"}},
		{"escaped json", `"{\"password\":\"hunter2\"}"`, []string{"password-assignment=hunter2"}},
		{"camel case key", "dbPassword: 's3cret'", []string{"password-assignment=s3cret"}},
		{"one char password", "password: q", []string{"password-assignment=q"}},
		{"pin", "PIN password: 0451", []string{"password-assignment=0451"}},
		{"numeric flag", "'HAVE_STRUCT_PASSWD': 1,", nil},
		{"xml", "<password>hunter2</password>", []string{"password-assignment=hunter2"}},
		{"query string", "https://x.test/login?user=bob&password=hunter2&next=/", []string{"password-assignment=hunter2"}},
		{"python annotated", `password: str = "hunter22"`, []string{"password-assignment=hunter22"}},
		{"multiline yaml", "user: bob\npassword: hunter2\nhost: db\n", []string{"password-assignment=hunter2"}},
		{"empty password", "password=\npassword: \"\"", nil},
		{"placeholders", "password=<password> pwd=${PASSWORD} passwd=$PASSWORD password=*** password=xxx " +
			"password=... password=your-password-here password=changeme password: null", nil},
		{"prose", "reset the password in the admin panel; the token expires after 1h", nil},
		{"prose with colon", "Password: see the vault for details", nil},
		{"key continues", "password_hash=abc123 password_min_length: 12 max_tokens: 4096 tokenizer=bpe", nil},
		{"code references", "password = os.getenv(\"PW\")\npassword: process.env.DB_PASSWORD\npassword=$(cat pw.txt)", nil},
		{"type annotation only", "password: string;", nil},
		{"pwd is a directory", "PWD=/home/bob\nOLDPWD=~/src\nPWD=build pwd=C:\\Users\\bob pwd: dir", nil},
		{"password holding a secret word", "password=supersecret1 and passwd: mysecretpass", []string{"password-assignment=supersecret1", "password-assignment=mysecretpass"}},
		{"bare pwd holding a password", "pwd=Xk9mQ2vLp77", []string{"password-assignment=Xk9mQ2vLp77"}},
		{"variable use", `echo "$PASSWORD: set"`, nil},
		{"db pass suffix", "DB_PASS=hunter2", []string{"password-assignment=hunter2"}},
		{"docker env list", `environment: ["DB_PASSWORD=hunter2", "X=1"]`, []string{"password-assignment=hunter2"}},
		{"test output", "--- PASS: TestLogin (0.00s)\nPASS\nok  \tpkg\t0.01s", nil},
		{"key inside a string", `env = append(env, "PWD="+dir)` + "\n" + `panic("bad private key: " + err.Error())`, nil},
		{"code identifiers", "PrivateKey: testRSAPrivateKey,\nself.token = nextchar\npwd: dir,", nil},
		{"code constants", "const ERROR_WRONG_PASSWORD = 1323\nX_PATH_PASSWD = \"/etc/passwd\"\nTOKEN_OID = \"1.2.840.113549\"", nil},
		{"token that names itself", `Token: "X-Connection-Token"`, nil},

		// generic secret assignments
		{"api key", "api_key=abcd1234efgh5678", []string{"generic-secret-assignment=abcd1234efgh5678"}},
		{"client secret yaml", "client_secret: 'Zm9vYmFyYmF6cXV4'", []string{"generic-secret-assignment=Zm9vYmFyYmF6cXV4"}},
		{"access token json", `{"access_token": "ya29.a0AfH6SMBx3"}`, []string{"generic-secret-assignment=ya29.a0AfH6SMBx3"}},
		{"auth token env", "AUTH_TOKEN=9f8e7d6c5b4a", []string{"generic-secret-assignment=9f8e7d6c5b4a"}},
		{"secret key", "SECRET_KEY = \"django-insecure-abc123\"", []string{"generic-secret-assignment=django-insecure-abc123"}},
		{"private key assignment", "private_key: k3y-mat3rial-here1", []string{"generic-secret-assignment=k3y-mat3rial-here1"}},
		{"apikey header", "x-api-key: 0123abcd4567efgh", []string{"generic-secret-assignment=0123abcd4567efgh"}},
		{"generic too short", "api_key=abc123 token: 1234567", nil},
		{"generic all digits", "token: 1234567890", nil},
		{"generic placeholder", "api_key=YOUR_API_KEY client_secret=<client-secret> token=${{ secrets.TOKEN }}", nil},
		{"generic holding vendor key", "api_key: " + google, []string{"google-api-key=" + google}},
		{"bearer opaque", "curl -H 'Authorization: Bearer 0pAqUe7oKeN123456'", []string{"generic-secret-assignment=0pAqUe7oKeN123456"}},
		{"bearer in prose", "Bearer tokens are sent in the Authorization header", nil},

		// connection strings
		{"postgres", "postgres://user:pass@host:5432/db", []string{"connection-string-password=pass"}},
		{"mongodb srv with at", "mongodb+srv://admin:p@ss%21w0rd@cluster0.example.net/", []string{"connection-string-password=p@ss%21w0rd"}},
		{"redis no user", "redis://:Sup3rS3cret@cache:6379", []string{"connection-string-password=Sup3rS3cret"}},
		{"conn placeholder", "postgres://user:<password>@host postgres://user:${DB_PASS}@host mysql://root:password@db", nil},
		{"token as url user", "https://" + ghp + ":x-oauth-basic@github.com/o/r",
			[]string{"github-token=" + ghp, "connection-string-password=x-oauth-basic"}},
		{"url without password", "https://bob@example.com/x and https://example.com:8443/a@b", nil},
		{"mysql", "mysql://root:hunter22@db:3306/app", []string{"connection-string-password=hunter22"}},
		{"amqp", "amqp://guest:s3cr3t@rabbit:5672/vhost", []string{"connection-string-password=s3cr3t"}},
		{"redis short", "redis://:pass@cache", []string{"connection-string-password=pass"}},
		{"one-letter password", "postgres://u:p@h", []string{"connection-string-password=p"}},
		{"https user and token", "https://deploy:Tok3nValue42@git.internal/x.git", []string{"connection-string-password=Tok3nValue42"}},
		{"conn string with query", "postgres://u:pw1@h/db?sslmode=disable", []string{"connection-string-password=pw1"}},
		{"hex token as url user", "https://0123456789abcdef0123456789abcdef01234567@github.com/o/r",
			[]string{"url-token=0123456789abcdef0123456789abcdef01234567"}},
		{"mixed-case token as url user", "git clone https://Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf@git.example.org/o/r",
			[]string{"url-token=Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf"}},
		{"vendor token as url user", "https://" + ghp + "@github.com/o/r", []string{"github-token=" + ghp}},
		{"query api_key", "https://x.test/v1?api_key=abcd1234efgh5678&page=2", []string{"generic-secret-assignment=abcd1234efgh5678"}},
		{"query access_token", "https://x.test/cb#access_token=abcd1234efgh5678", []string{"generic-secret-assignment=abcd1234efgh5678"}},

		// layout
		{"lines and order", "first\npassword=hunter2\n\n" + awsID + "\n",
			[]string{"password-assignment=hunter2", "aws-access-key-id=" + awsID}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Scan(tc.in) {
				got = append(got, f.Kind+"="+tc.in[f.Start:f.End])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Scan(%q)\n got  %q\n want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestQuietNotes lists ordinary notes an agent stores; none may be flagged.
func TestQuietNotes(t *testing.T) {
	notes := []string{
		"To reset the password, go to Settings > Security > Reset password.",
		"The API key is stored in 1Password under 'Stripe prod'.",
		"Auth: tokens expire after 1h; refresh tokens after 30 days.",
		"Config keys: api_key, client_secret and access_token are read from env.",
		"password_min_length: 12\npassword_require_symbols: true",
		"Set OPENAI_API_KEY in .env (see .env.example).",
		"export GITHUB_TOKEN=$(gh auth token)",
		"DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
		"Token budget: max_tokens=4096, temperature=0.2",
		"secret: projects/acme/secrets/db-pass/versions/latest",
		"public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl bob@laptop",
		"Password: ask Alice in #ops",
		"Tip: `password=` must be URL-encoded",
		"git@github.com:org/repo.git and ssh://git@github.com/org/repo",
		"The key: value pairs are parsed by yaml.v3",
		"token_type: Bearer\nsession_token: null\nsecret: true",
		"api_key: <your-api-key>\npassword: '********'",
		"AKIA prefixes denote AWS access keys; sk-... keys are OpenAI's.",
		"commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it; id 123e4567-e89b-12d3-a456-426614174000",
		"The Password field: must be at least 8 characters",
		"PASSWORD_RESET_URL=https://example.com/reset and secret_santa: Bob",
		"# TODO: rotate the api key before launch",
		"password: ${{ secrets.DB_PASSWORD }}\ntoken: ${TOKEN:-}",
		"Authorization: Bearer <token> or Bearer $TOKEN",
		"def login(username, password=None):\ndef check(password: str) -> bool:",
		"let password = prompt('Password:')\nconst token = req.headers.authorization",
		"if (password == confirm) { PasswordHash: bcrypt.GenerateFromPassword(pw) }",
		"Slack channel xoxo-party; user ghost_user",
		"eyJhbGciOiJIUzI1NiJ9 is the base64 of a JWT header",
		"Meeting notes: the token expires after 1h; keyboard shortcut ctrl+k",
		"https://example.com/a?b=c and bob@example.com and user@host",
		"https://first.last@example.com/x https://build-bot-2024-01@ci.example.com ssh://git@github.com:22/o/r",
		"https://www.example.com/search?q=token+rotation&page=2#results",
		"postgres://app@db:5432/app?sslmode=require and redis://cache:6379/0",
		"https://abcdefghijklmnopqrstuvwxyz@example.com (letters only) https://12345678901234567890123456789012@h",
	}
	for _, n := range notes {
		if fs := Scan(n); fs != nil {
			var vals []string
			for _, f := range fs {
				vals = append(vals, f.Kind+"="+n[f.Start:f.End])
			}
			t.Errorf("Scan(%q) = %q, want nothing", n, vals)
		}
	}
}

func TestLines(t *testing.T) {
	in := "a\npassword=hunter2\n\nb " + awsID + "\n" + pem("EC PRIVATE KEY", pemBody)
	var lines []int
	for _, f := range Scan(in) {
		lines = append(lines, f.Line)
	}
	if want := []int{2, 4, 5}; !slices.Equal(lines, want) {
		t.Fatalf("lines = %v, want %v", lines, want)
	}
}

func TestRedact(t *testing.T) {
	in := "note\npassword: \"hunter2\"\nAWS " + awsID + " " + awsSecret + "\n" +
		"db postgres://app:Sup3rS3cret@db:5432/x\n" + pem("OPENSSH PRIVATE KEY", pemBody) + "\nbye"
	want := "note\npassword: \"[REDACTED:password-assignment]\"\nAWS [REDACTED:aws-access-key-id] [REDACTED:aws-secret-access-key]\n" +
		"db postgres://app:[REDACTED:connection-string-password]@db:5432/x\n[REDACTED:private-key]\nbye"
	out, fs := Redact(in)
	if out != want {
		t.Fatalf("Redact:\n got  %q\n want %q", out, want)
	}
	if len(fs) != 5 {
		t.Fatalf("findings = %d, want 5", len(fs))
	}
	for _, f := range fs {
		if v := in[f.Start:f.End]; strings.Contains(out, v) {
			t.Errorf("redacted output still holds %s value %q", f.Kind, v)
		}
	}
	if again := Scan(out); again != nil {
		t.Errorf("rescan of redacted text found %v", again)
	}
	if out, fs := Redact("nothing to see"); out != "nothing to see" || fs != nil {
		t.Errorf("Redact on clean text = %q, %v", out, fs)
	}
}

// TestRedactRescan covers inputs where masking one value changes the text
// around another; the redacted text must still scan clean.
func TestRedactRescan(t *testing.T) {
	for _, in := range []string{
		"https://" + ghp + ":x-oauth-basic@github.com/org/repo",
		"https://" + ghp + ":x@github.com/org/repo",
		`password: "my ` + openai + ` Password"`,
		"token=abc." + jwt,
		"<password>note " + openai + "</password>",
		"secret: " + awsID + " more words here",
		"-----" + "BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----: abcdefgh1",
		"api_key=" + google + "&password=" + xoxb,
	} {
		out, fs := Redact(in)
		if fs == nil {
			t.Errorf("Redact(%q) found nothing", in)
		}
		if again := Scan(out); again != nil {
			t.Errorf("Redact(%q) = %q, rescan found %v", in, out, again)
		}
	}
}

func TestRedactEveryKind(t *testing.T) {
	secrets := []string{ghp, ghPAT, xoxb, openai, openaiOld, anthropic, google, stripe, stripeRK, jwt, awsID}
	in := strings.Join(secrets, "\n") + "\nhttps://hooks.slack.com/services/" + slackHook
	out, fs := Redact(in)
	if len(fs) != len(secrets)+1 {
		t.Fatalf("found %d, want %d: %v", len(fs), len(secrets)+1, fs)
	}
	for _, v := range append(secrets, slackHook) {
		if strings.Contains(out, v) {
			t.Errorf("redacted output still holds %q", v)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"", "no secrets"},
		{"x\nx\n" + awsID + "\n\n\n\npassword=hunter2", "an AWS access key id on line 3 and a password assignment on line 7"},
		{ghp + "\n\n" + ghp + "\napi_key=abcd1234efgh", "2 GitHub tokens on lines 1 and 3 and a secret assignment on line 4"},
		{"password=a password=b\npassword=c", "3 password assignments on lines 1 and 2"},
	} {
		if got := Describe(Scan(tc.in)); got != tc.want {
			t.Errorf("Describe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDescribeKinds(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"postgres://u:p@h", "a password in a connection string"},
		{ghp + "\n" + ghp + " password=hunter2", "2 GitHub tokens and a password assignment"},
	} {
		if got := DescribeKinds(Scan(tc.in)); got != tc.want {
			t.Errorf("DescribeKinds(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScanNamed(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        []string
	}{
		{"db_password", "hunter2", []string{"password-assignment=hunter2"}},
		{"password", "two words", []string{"password-assignment=two words"}},
		{"api_key", "abcd1234efgh5678", []string{"generic-secret-assignment=abcd1234efgh5678"}},
		{"AWS_SECRET_ACCESS_KEY", awsSecret, []string{"aws-secret-access-key=" + awsSecret}},
		{"note", "connect with postgres://u:pw@h", []string{"connection-string-password=pw"}},
		{"token", "use " + ghp, []string{"github-token=" + ghp}},
		{"token", ghp, []string{"github-token=" + ghp}},
		// placeholders, references and ordinary names stay quiet
		{"db_password", "${DB_PASSWORD}", nil},
		{"password", "changeme", nil},
		{"api_key", "[REDACTED:generic-secret-assignment]", nil},
		{"token", "short", nil},
		{"password_policy", "min 12 characters", nil},
		{"key", "ENG-12", nil},
		{"ticket", "ENG-1234567890", nil},
		{"", "hunter2", nil},
	} {
		var got []string
		for _, f := range ScanNamed(tc.name, tc.value) {
			got = append(got, f.Kind+"="+tc.value[f.Start:f.End])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ScanNamed(%q, %q) = %q, want %q", tc.name, tc.value, got, tc.want)
		}
	}
}

func TestMask(t *testing.T) {
	in := "a postgres://u:pw@h and " + ghp
	if got, want := Mask(in, Scan(in)), "a postgres://u:[REDACTED:connection-string-password]@h and [REDACTED:github-token]"; got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
	if got := Mask("hunter2", ScanNamed("password", "hunter2")); got != "[REDACTED:password-assignment]" {
		t.Errorf("Mask of a named value = %q", got)
	}
}

// FuzzScan checks invariants on arbitrary input: ranges in bounds, ordered,
// non-overlapping, lines right, and Redact's output scanning clean (values
// holding a "[REDACTED:" marker are masked by definition). Known exception,
// too contrived for the fuzzer to reach: masking a token inside a longer run
// can leave a neighbour that now has another key's exact shape, e.g. a run
// "AIza"+34+"_"+AKIA… that becomes a 39-byte "AIza…" once the AKIA id is
// masked; masking can't help there, since the redacted text does hold a
// key-shaped string.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"password=hunter2", awsID + " " + awsSecret, pem("RSA PRIVATE KEY", pemBody),
		"postgres://u:p@h", `{"api_key": "` + google + `"}`, "Bearer " + jwt, ghp, xoxb, openai, anthropic,
		"<password>x</password>", `"{\"token\":\"abcdefgh1\"}"`, "password: str = 'x'", stripe,
		"https://" + ghp + ":x@h", "https://Zq8Rt2Lm5Nv1Xc7Bk3Jh9Gf@h", `env("PWD="+dir) pwd="a b"`, "secret: " + awsID + " more", "-----BEGIN A PRIVATE KEY-----\nAB=="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		fs := Scan(in)
		end := 0
		for _, f := range fs {
			if f.Start < end || f.End <= f.Start || f.End > len(in) {
				t.Fatalf("bad range %+v after %d in %q", f, end, in)
			}
			if want := 1 + strings.Count(in[:f.Start], "\n"); f.Line != want {
				t.Fatalf("line %d, want %d", f.Line, want)
			}
			if _, ok := kinds[f.Kind]; !ok {
				t.Fatalf("unknown kind %q", f.Kind)
			}
			end = f.End
		}
		out, _ := Redact(in)
		if again := Scan(out); again != nil {
			t.Fatalf("Redact(%q) = %q still has %+v", in, out, again)
		}
		_ = Describe(fs)
		for _, name := range []string{"password", "api_key"} {
			out := Mask(in, ScanNamed(name, in))
			if again := ScanNamed(name, out); again != nil {
				t.Fatalf("Mask(%q) under %s = %q still has %+v", in, name, out, again)
			}
		}
	})
}

func BenchmarkScan(b *testing.B) {
	// Mixed notes, code and config that hit every anchor without many secrets.
	chunk := "Meeting notes: reset the password in the admin panel; the token expires after 1h.\n" +
		"See https://docs.example.com/api/v1/keys?page=2 and the monkey-patched tokenizer.\n" +
		"func load(key string) (string, error) { return os.Getenv(key), nil } // secret sauce\n" +
		"config:\n  password_hash: bcrypt\n  max_tokens: 4096\n  api_key: ${API_KEY}\n" +
		"The task-runner uses disk-cache; AIzaSy is not enough; ghost_user and xoxo.\n" +
		"Bearer tokens are sent in headers. -----BEGIN CERTIFICATE----- eyJ is base64 for {\".\n"
	text := strings.Repeat(chunk, (1<<20)/len(chunk)+1)[:1<<20]
	text = text[:len(text)/2] + "password=hunter2 " + awsID + text[len(text)/2+25:]
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

// TestLinear guards against quadratic rescans: each input is 1 MiB of one
// repeated near-miss, which would take minutes if a detector rescanned the
// rest of the line or run from every anchor.
func TestLinear(t *testing.T) {
	for _, unit := range []string{"password=", "password: ", "sk-", "AIza", "xoxb-", "gh" + "p_", "eyJ.", "</",
		"<password></", "-----BEGIN A PRIVATE KEY-----", "a://b:", "Bearer ", awsID + " ", "token=\"", "\\\"password\\\":"} {
		in := strings.Repeat(unit, (1<<20)/len(unit))
		start := time.Now()
		Redact(in)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%q×%d took %v", unit, len(in)/len(unit), d)
		}
	}
}
