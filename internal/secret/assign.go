package secret

import "strings"

// assignments finds `key = value`, `key: value`, `"key": "value"` and
// `<key>value</key>` where the key NAME ends in a secret word (DB_PASSWORD,
// userPassword, client_secret, OPENAI_API_KEY); names that go on
// (password_hash, tokenizer, max_tokens) are not secrets. It anchors on the
// separators and looks back for the name, which needs no lowered copy of the
// text and fewer passes than searching for every key word.
func (s *scanner) assignments() {
	t := s.t
	each(t, "=", func(j int) int {
		if j > 0 && strings.IndexByte(":=!<>", t[j-1]) >= 0 || strings.HasPrefix(t[j+1:], "=") {
			return 0 // :=, ==, !=, <=, >= (":=" is the ':' pass's)
		}
		if strings.HasPrefix(t[j+1:], ">") { // =>
			return s.assignment(j, j+2, false)
		}
		return s.assignment(j, j+1, false)
	})
	each(t, ":", func(j int) int {
		switch {
		case strings.HasPrefix(t[j+1:], "="):
			return s.assignment(j, j+2, false)
		case strings.HasPrefix(t[j+1:], ":") || j > 0 && t[j-1] == ':':
			return 0
		}
		return s.assignment(j, j+1, true)
	})
	each(t, "</", func(j int) int { // <password>v</password>
		o := strings.LastIndexByte(t[:j], '>')
		if o < 0 || strings.IndexByte(t[o:j], '\n') >= 0 {
			return 0
		}
		name, _, ok := strings.Cut(t[j+2:min(len(t), j+40)], ">")
		if kind, aws, pwd := keyName(name, ""); ok && kind != "" && strings.HasSuffix(t[:o+1], "<"+name+">") {
			s.value(kind, t[o+1:j], o+1, aws, pwd)
		}
		return 0
	})
	for _, b := range [...]string{"Bearer ", "bearer "} { // a rare first byte keeps Index fast
		each(t, b, func(i int) int {
			j := skipBlank(t, i+7)
			e := runEnd(t, j, func(c byte) bool { return isAlnum(c) || strings.IndexByte("-._~+/=", c) >= 0 })
			for e > j && t[e-1] == '.' { // sentence end
				e--
			}
			if v := t[j:e]; boundary(t, i) && len(v) >= 16 && has(v, isDigit) && has(v, isLetter) && !placeholder(v) {
				s.add(kindGeneric, j, e)
			}
			return e
		})
	}
}

const (
	kindPassword = "password-assignment"
	kindGeneric  = "generic-secret-assignment"
)

// keyName classifies a key name (any case) by its last word; before is the
// text preceding the name, for "API key" and "secret key" written with a
// space. aws marks names that may hold an AWS secret access key; pwd marks
// PWD, which is usually the shell's working directory.
func keyName(name, before string) (kind string, aws, pwd bool) {
	if len(name) < 3 || len(name) > 64 {
		return "", false, false
	}
	var buf [64]byte
	n := buf[:len(name)]
	for i := range len(name) {
		n[i] = name[i]
		if isUpper(name[i]) {
			n[i] += 'a' - 'A'
		}
	}
	l := string(n)
	suf := func(w string) bool { return strings.HasSuffix(l, w) }
	switch l[len(l)-1] {
	case 'd':
		if suf("password") || suf("passwd") {
			return kindPassword, false, false
		}
		if suf("pwd") {
			return kindPassword, false, true
		}
	case 'e':
		if suf("passphrase") {
			return kindPassword, false, false
		}
	case 's':
		if l == "pass" || suf("_pass") || suf("-pass") || suf(".pass") { // DB_PASS, not bypass
			return kindPassword, false, false
		}
	case 't', 'n':
		if suf("secret") || suf("token") {
			return kindGeneric, false, false
		}
	case 'y':
		if suf("secret_access_key") || suf("secretaccesskey") || suf("secret-access-key") {
			return kindGeneric, true, false
		}
		for _, w := range [...]string{"api_key", "apikey", "api-key", "private_key", "privatekey", "private-key"} {
			if suf(w) {
				return kindGeneric, false, false
			}
		}
		if suf("secret_key") || suf("secretkey") || suf("secret-key") {
			return kindGeneric, strings.Contains(l, "aws"), false
		}
		if l == "key" {
			lb := strings.ToLower(before[max(0, len(before)-8):])
			if strings.HasSuffix(lb, "api ") || strings.HasSuffix(lb, "private ") || strings.HasSuffix(lb, "secret ") {
				return kindGeneric, false, false
			}
		}
	}
	return "", false, false
}

// assignment handles a separator at t[sep:vs]: it finds the key name before
// it and, if that names a secret, records the value after it. colon marks
// "key: value", where prose and type annotations also live.
func (s *scanner) assignment(sep, vs int, colon bool) int {
	t := s.t
	ke := sep
	for ke > 0 && (t[ke-1] == ' ' || t[ke-1] == '\t') {
		ke--
	}
	if ke > 1 && t[ke-1] == ']' && (t[ke-2] == '"' || t[ke-2] == '\'') { // ENV["PASSWORD"] = …
		ke--
	}
	if ke > 0 && (t[ke-1] == '"' || t[ke-1] == '\'') { // "password": …
		if ke--; ke > 0 && t[ke-1] == '\\' { // key inside an escaped JSON string
			ke--
		}
	}
	st := ke
	for st > 0 && (isAlnum(t[st-1]) || strings.IndexByte("_-.", t[st-1]) >= 0) {
		st--
	}
	kind, aws, pwd := keyName(t[st:ke], t[:st])
	if kind == "" || st > 0 && t[st-1] == '$' { // $PASSWORD: is a use, not an assignment
		return 0
	}
	vs, ve, quoted := valueAt(t, skipBlank(t, vs))
	v := t[vs:ve]
	if !quoted && colon && typeWord(v) { // password: str = "…"
		k := skipBlank(t, ve)
		if !strings.HasPrefix(t[k:], "=") || strings.HasPrefix(t[k:], "==") {
			return 0
		}
		vs, ve, quoted = valueAt(t, skipBlank(t, k+1))
		v, colon = t[vs:ve], false
	}
	if !quoted && (strings.ContainsAny(v, "([<{") || dottedRef(v)) { // getpass(), os.environ[…], cfg.password
		return 0
	}
	// "Password: see the vault" is prose, "password: hunter2" is YAML; a
	// plain word followed by more words is taken as prose.
	if !quoted && colon && all(v, isLetter) && ve < len(t) && (t[ve] == ' ' || t[ve] == '\t') {
		if k := skipBlank(t, ve); k < len(t) && isLetter(t[k]) {
			return 0
		}
	}
	s.value(kind, v, vs, aws, pwd)
	return 0
}

func (s *scanner) value(kind, v string, vs int, aws, pwd bool) {
	switch {
	case v == "" || pwd && (v[0] == '/' || v[0] == '~'): // $PWD is a directory
	case aws && len(v) == 40 && all(v, isB64Std) && !masked(v):
		s.add("aws-secret-access-key", vs, vs+len(v))
	case placeholder(v):
	case kind == kindPassword || len(v) >= 8 && !all(v, isDigit):
		s.add(kind, vs, vs+len(v))
	}
}

// typeWord reports a type annotation such as `password: str`.
func typeWord(v string) bool {
	for _, w := range [...]string{"str", "string", "bytes", "[]byte", "secretstr", "secretstring", "text", "any"} {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	return false
}

func skipBlank(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// valueAt returns the value starting at j, without its quotes. A quote left
// open runs to the end of the line: better to mask too much than too little.
func valueAt(t string, j int) (vs, ve int, quoted bool) {
	if j >= len(t) {
		return j, j, false
	}
	le := lineEnd(t, j)
	if strings.HasPrefix(t[j:], `\"`) {
		if k := strings.Index(t[j+2:le], `\"`); k >= 0 {
			return j + 2, j + 2 + k, true
		}
		return j + 2, j + 2 + len(strings.TrimRight(t[j+2:le], " \t\r")), true
	}
	if q := t[j]; q == '"' || q == '\'' || q == '`' {
		for k := j + 1; k < le; k++ {
			if t[k] == '\\' {
				k++
			} else if t[k] == q {
				return j + 1, k, true
			}
		}
		return j + 1, j + 1 + len(strings.TrimRight(t[j+1:le], " \t\r")), true
	}
	return j, runEnd(t, j, func(c byte) bool {
		return c > ' ' && strings.IndexByte("\"'`,;&)]}", c) < 0
	}), false
}

// dottedRef reports a code reference such as process.env.TOKEN or self.pw.
func dottedRef(v string) bool {
	parts := strings.Split(v, ".")
	for _, p := range parts {
		if p == "" || isDigit(p[0]) || !all(p, func(c byte) bool { return isAlnum(c) || c == '_' }) {
			return false
		}
	}
	return len(parts) > 1
}

// masked reports values that cannot be a credential by their shape: no
// letters or digits (***, ..., |), a reference or template ($PW, ${PW},
// $(cmd), <password>, {{pw}}, %s, %PW%), our own redaction marker, or one
// filler character. A real password that starts with '$' and a letter is
// taken for a variable: a known blind spot.
func masked(v string) bool {
	if !has(v, isAlnum) || strings.HasPrefix(v, "[REDACTED") {
		return true
	}
	switch v[0] {
	case '$':
		return len(v) > 1 && (v[1] == '{' || v[1] == '(' || v[1] == '_' || isLetter(v[1]))
	case '<':
		return v[len(v)-1] == '>'
	case '{':
		return v[len(v)-1] == '}'
	case '%':
		return true
	}
	return filler(v)
}

// filler reports xxxx…, XXXX-XXXX and runs of one character.
func filler(v string) bool {
	if len(v) >= 3 && strings.Count(v, v[:1]) == len(v) {
		return true
	}
	return has(v, isAlnum) && all(v, func(c byte) bool { return c == 'x' || c == 'X' || !isAlnum(c) })
}

// placeholders are words that stand for a password in docs and notes. Decided:
// "changeme" is one (it is an instruction, not a secret worth blocking a
// write for), while "pass" and "secret" are not (real weak passwords, and
// `postgres://user:pass@host` should be flagged).
var placeholders = map[string]bool{"password": true, "passwd": true, "passphrase": true,
	"changeme": true, "changeit": true, "placeholder": true, "redacted": true, "removed": true,
	"masked": true, "hidden": true, "omitted": true, "null": true, "nil": true, "none": true,
	"undefined": true, "true": true, "false": true, "todo": true, "tbd": true, "vault": true,
	"string": true, "mypassword": true, "yourpassword": true, "foo": true, "bar": true, "foobar": true, "secrethere": true,
	"passwordhere": true, "tokenhere": true, "keyhere": true, "apikeyhere": true}

// placeholder reports values that stand for a secret rather than being one.
// Only assignment values get the word rules: vendor tokens such as AWS's
// documented AKIAIOSFODNN7EXAMPLE are still real-looking keys.
func placeholder(v string) bool {
	if masked(v) {
		return true
	}
	if len(v) > 64 {
		return false
	}
	w := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if c := v[i]; isAlnum(c) {
			w = append(w, c|0x20) // ASCII lower for letters, no-op for digits
		}
	}
	ws := string(w)
	if placeholders[ws] || strings.Contains(ws, "example") || strings.HasSuffix(ws, "goeshere") {
		return true
	}
	for _, p := range [...]string{"your", "insert", "enteryour", "replacewith", "replaceme"} {
		if strings.HasPrefix(ws, p) && len(ws) > 4 {
			return true
		}
	}
	return false
}
