package secret

import "strings"

// Value shape tests shared by the assignment and URL detectors.

// codeRef reports an unquoted value that is code naming the secret rather
// than the secret: calls and indexing (getpass(), os.environ[…]), dotted
// paths (process.env.TOKEN), identifiers that name a secret themselves
// (PrivateKey = testRSAPrivateKey) and plain identifiers ending an argument
// or field (pwd: dir,).
func codeRef(v, after string) bool {
	if strings.ContainsAny(v, "([<{") || dottedRef(v) {
		return true
	}
	if v == "" || isDigit(v[0]) || !all(v, func(c byte) bool { return isAlnum(c) || c == '_' }) {
		return false
	}
	return namesSecretWord(v) || !has(v, isDigit) && after != "" && strings.IndexByte(",;)]}", after[0]) >= 0
}

// namesSecretWord reports an identifier with a secret word as one of its
// words (dbPassword, MY_SECRET, testRSAPrivateKey, token): the word starts
// the value, follows a '_' or '-', or starts a capitalised word. Inside a
// word ("supersecret1", "mysecretpass") it is part of a password.
func namesSecretWord(v string) bool {
	for _, w := range [...]string{"pass", "pwd", "secret", "token", "key"} {
		for i := 0; i+len(w) <= len(v); i++ {
			if strings.EqualFold(v[i:i+len(w)], w) && wordStart(v, i) {
				return true
			}
		}
	}
	return false
}

// wordStart reports whether an identifier's word starts at v[i].
func wordStart(v string, i int) bool {
	switch {
	case i == 0 || v[i-1] == '_' || v[i-1] == '-':
		return true
	case !isUpper(v[i]):
		return false
	}
	return !isUpper(v[i-1]) || i+1 < len(v) && isLower(v[i+1]) // fooBar, RSAPrivate
}

// bareValueCounts reports an unquoted value of a bare PWD that is a
// password rather than the shell's working directory: letters and digits
// mixed, and nothing of a path (pwd=Xk9mQ2vLp77, not PWD=build or C:\src).
func bareValueCounts(v string) bool {
	return has(v, isLetter) && has(v, isDigit) && !strings.ContainsAny(v, "/\\") && v[0] != '.' && v[0] != '~'
}

// namesSecret reports a value that mentions a secret word, as identifiers
// and header names do (X-Connection-Token) but random tokens do not.
func namesSecret(v string) bool {
	for _, w := range [...]string{"pass", "pwd", "secret", "token", "key"} {
		if containsFold(v, w) {
			return true
		}
	}
	return false
}

func containsFold(v, w string) bool {
	for i := 0; i+len(w) <= len(v); i++ {
		if strings.EqualFold(v[i:i+len(w)], w) {
			return true
		}
	}
	return false
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
// Scans stop at the value's end, never at a far line end, to stay linear.
func valueAt(t string, j int) (vs, ve int, quoted bool) {
	if j+1 < len(t) && strings.IndexByte("bBrRuUfF", t[j]) >= 0 && strings.IndexByte("\"'", t[j+1]) >= 0 {
		j++ // Python b"…", r'…'
	}
	if j >= len(t) {
		return j, j, false
	}
	q, k := t[j], j+1
	switch {
	case strings.HasPrefix(t[j:], `\"`): // inside an escaped JSON string
		for k++; k < len(t) && t[k] != '\n' && !strings.HasPrefix(t[k:], `\"`); k++ {
		}
		return j + 2, trimEnd(t, j+2, k), true
	case q == '"' || q == '\'' || q == '`':
		for ; k < len(t) && t[k] != q && t[k] != '\n'; k++ {
			if t[k] == '\\' && k+1 < len(t) && t[k+1] != '\n' {
				k++
			}
		}
		return j + 1, trimEnd(t, j+1, k), true
	}
	// Unquoted: up to a blank or delimiter. A run over maxValue is a blob,
	// not a credential; the cap keeps "password=password=…" linear.
	for k = j; k < len(t) && !valueStop[t[k]]; k++ {
		if k-j == maxValue {
			return j, j, false
		}
	}
	return j, k, false
}

const maxValue = 512

// valueStop marks the bytes that end an unquoted value.
var valueStop = func() (stop [256]bool) {
	for c := range ' ' + 1 {
		stop[c] = true
	}
	for _, c := range []byte("\"'`,;&)]}") {
		stop[c] = true
	}
	return stop
}()

// trimEnd drops trailing blanks of an unclosed quoted value t[i:k].
func trimEnd(t string, i, k int) int {
	if k < len(t) && t[k] != '\n' {
		return k // closed
	}
	return i + len(strings.TrimRight(t[i:k], " \t\r"))
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
// $(cmd), <password>, {{pw}}, %s, %PW%), one filler character, or holding
// our own redaction marker (what is left around a masked token is not a
// secret, and rescanning Redact's output must find nothing). A real password
// that starts with '$' and a letter is taken for a variable: a blind spot.
func masked(v string) bool {
	if !has(v, isAlnum) || strings.Contains(v, "[REDACTED:") {
		return true
	}
	switch v[0] {
	case '$':
		return len(v) > 1 && (v[1] == '{' || v[1] == '(' || v[1] == '_' || isLetter(v[1]))
	case '<':
		return v[len(v)-1] == '>'
	case '{':
		return v[len(v)-1] == '}'
	case '%', ':': // %s, %(pw)s, %PW%; :password (SQL, Ruby, Sphinx)
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
	"string": true, "value": true, "mypassword": true, "foo": true, "bar": true, "foobar": true}

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
	if placeholders[ws] || strings.Contains(ws, "example") || strings.Contains(ws, "redacted") ||
		strings.HasSuffix(ws, "here") && (namesSecret(ws) || strings.HasSuffix(ws, "goeshere")) {
		return true
	}
	for _, p := range [...]string{"your", "insert", "enteryour", "replacewith", "replaceme"} {
		if strings.HasPrefix(ws, p) && len(ws) > 4 {
			return true
		}
	}
	return false
}
