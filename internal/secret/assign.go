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
		switch {
		case j > 0 && strings.IndexByte(":=!<>", t[j-1]) >= 0, strings.HasPrefix(t[j+1:], "="):
			// :=, ==, !=, <=, >= (":=" is the ':' pass's)
		case strings.HasPrefix(t[j+1:], ">"): // =>
			s.assignment(j, j+2, false)
		default:
			s.assignment(j, j+1, false)
		}
		return 0
	})
	each(t, ":", func(j int) int {
		switch {
		case strings.HasPrefix(t[j+1:], "="):
			s.assignment(j, j+2, false)
		case strings.HasPrefix(t[j+1:], ":") || j > 0 && t[j-1] == ':':
		default:
			s.assignment(j, j+1, true)
		}
		return 0
	})
	each(t, "</", func(j int) int { // <password>v</password>
		name, _, ok := strings.Cut(t[j+2:min(len(t), j+40)], ">")
		kind, flags := keyName(name, "")
		if !ok || kind == "" {
			return 0
		}
		// Linear: every closing tag searched for holds a '>' of its own.
		o := strings.LastIndexByte(t[:j], '>')
		if o >= 0 && strings.IndexByte(t[o:j], '\n') < 0 && strings.HasSuffix(t[:o+1], "<"+name+">") {
			s.value(kind, t[o+1:j], o+1, flags, true, false)
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

// Key name flags.
const (
	awsName  = 1 << iota // may hold an AWS secret access key
	pwdName              // *pwd: a value that is a path is a directory
	bareName             // PWD or OLDPWD, the shell's working directory: an unquoted value counts only if password-shaped
)

// keyName classifies a key name (any case) by its last word; before is the
// text preceding the name, for "API key" and "secret key" written with a
// space. A bare "pass" is not a key: it is too often PASS as in pass/fail.
func keyName(name, before string) (kind string, flags int) {
	if len(name) < 3 {
		return "", 0
	}
	name = name[max(0, len(name)-64):] // only the last word matters
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
			return kindPassword, 0
		}
		if l == "pwd" || l == "oldpwd" || suf(".pwd") {
			return kindPassword, pwdName | bareName
		}
		if suf("pwd") {
			return kindPassword, pwdName
		}
	case 'e':
		if suf("passphrase") {
			return kindPassword, 0
		}
	case 's':
		if suf("_pass") || suf(".pass") { // DB_PASS, db.pass
			return kindPassword, 0
		}
	case 't', 'n':
		if suf("secret") || suf("token") {
			return kindGeneric, 0
		}
	case 'y':
		if suf("secret_access_key") || suf("secretaccesskey") || suf("secret-access-key") {
			return kindGeneric, awsName
		}
		for _, w := range [...]string{"api_key", "apikey", "api-key", "private_key", "privatekey", "private-key"} {
			if suf(w) {
				return kindGeneric, 0
			}
		}
		if suf("secret_key") || suf("secretkey") || suf("secret-key") {
			if strings.Contains(l, "aws") {
				return kindGeneric, awsName
			}
			return kindGeneric, 0
		}
		if l == "key" {
			lb := strings.ToLower(before[max(0, len(before)-8):])
			if strings.HasSuffix(lb, "api ") || strings.HasSuffix(lb, "private ") || strings.HasSuffix(lb, "secret ") {
				return kindGeneric, 0
			}
		}
	}
	return "", 0
}

// assignment handles a separator at t[sep:vs]: it finds the key name before
// it and, if that names a secret, records the value after it. colon marks
// "key: value", where prose and type annotations also live. Separators
// inside a value are still visited: skipping them would make the result
// depend on where masking later cuts the value.
func (s *scanner) assignment(sep, vs int, colon bool) {
	t := s.t
	ke := sep
	for ke > 0 && (t[ke-1] == ' ' || t[ke-1] == '\t') {
		ke--
	}
	if ke > 1 && t[ke-1] == ']' && (t[ke-2] == '"' || t[ke-2] == '\'') { // ENV["PASSWORD"] = …
		ke--
	}
	quotedKey := ke > 0 && (t[ke-1] == '"' || t[ke-1] == '\'')
	if quotedKey { // "password": …
		if ke--; ke > 0 && t[ke-1] == '\\' { // key inside an escaped JSON string
			ke--
		}
	}
	st := ke
	for st > 0 && (isAlnum(t[st-1]) || strings.IndexByte("_-.", t[st-1]) >= 0) {
		st--
	}
	kind, flags := keyName(t[st:ke], t[:st])
	vs = skipBlank(t, vs)
	switch {
	case kind == "":
		return
	case st > 0 && t[st-1] == '$': // $PASSWORD: is a use, not an assignment
		return
	case colon && st > 0 && t[st-1] == ':': // group:password:GID is a field list
		return
	}
	vs, ve, quoted := valueAt(t, vs)
	v := t[vs:ve]
	if quoted && !quotedKey && v != "" && strings.IndexByte(" \t+,;).", v[0]) >= 0 {
		return // `"PWD=" + dir`, `"bad private key: ", err`: the quote closed a string around the key
	}
	if !quoted && colon && typeWord(v) { // password: str = "…"
		k := skipBlank(t, ve)
		if !strings.HasPrefix(t[k:], "=") || strings.HasPrefix(t[k:], "==") {
			return
		}
		vs, ve, quoted = valueAt(t, skipBlank(t, k+1))
		v, colon = t[vs:ve], false
	}
	if !quoted && codeRef(v, t[ve:]) {
		return
	}
	// "Password: see the vault" is prose, "password: hunter2" is YAML: a
	// plain word followed by more text is taken as prose. So is "x = word
	// word"; shell's PGPASSWORD=word cmd has no space before the '='.
	if !quoted && (colon || ke < sep) && all(v, isLetter) && ve < len(t) && (t[ve] == ' ' || t[ve] == '\t') {
		if k := skipBlank(t, ve); k < len(t) && t[k] != '\n' && t[k] != '\r' && t[k] != '#' {
			return
		}
	}
	if colon && !quoted && !quotedKey && st > 0 && ve < len(t) && t[ve] == t[st-1] && (t[ve] == '"' || t[ve] == '\'') {
		return // "passwd:uid" is one string naming a field
	}
	if strings.EqualFold(v, t[st:ke]) { // "encodeUserPassword": "encodeUserPassword"
		return
	}
	s.value(kind, v, vs, flags, quoted, !colon && ke < sep)
}

// value records v (at vs) unless it is a placeholder or looks like code;
// code marks `name = value` with spaces, as source code writes it.
func (s *scanner) value(kind, v string, vs, flags int, quoted, code bool) {
	num := strings.TrimPrefix(v, "-")
	numeric := all(num, func(c byte) bool { return isDigit(c) || c == '.' })
	hex := len(num) > 2 && (num[:2] == "0x" || num[:2] == "0X") && all(num[2:], func(c byte) bool {
		return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f'
	})
	switch {
	case v == "":
	case flags&awsName != 0 && len(v) == 40 && all(v, isB64Std) && !masked(v):
		s.add("aws-secret-access-key", vs, vs+len(v))
	case hex || numeric && (kind != kindPassword || code || len(v) < 4 || strings.Contains(v, ".")):
		// constants (ERROR_WRONG_PASSWORD = 1323), flags, versions, OIDs;
		// a password of 4+ digits outside code is a PIN
	case v[0] == '/' && strings.Count(v, "/") > 1 || flags&pwdName != 0 && (v[0] == '/' || v[0] == '~'):
		// paths (X_PATH_PASSWD = "/etc/passwd"); PWD=/home/bob is a directory
	case flags&bareName != 0 && !quoted && !bareValueCounts(v), placeholder(v):
	case kind == kindPassword:
		if !containsFold(v, "password") && !containsFold(v, "passwd") { // challengePassword, "Password used for …"
			s.add(kind, vs, vs+len(v))
		}
	// Tokens are random: no spaces, not words like X-Connection-Token, and
	// unquoted ones have a digit or are long and mixed-case (not nextchar).
	case len(v) >= 8 && !strings.ContainsAny(v, " \t") && !namesSecret(v) &&
		(quoted || has(v, isDigit) || len(v) >= 20 && !all(v, isLower) && !all(v, isUpper)):
		s.add(kind, vs, vs+len(v))
	}
}
