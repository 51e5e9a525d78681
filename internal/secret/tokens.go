package secret

import "strings"

// tokens finds vendor credentials recognisable on their own by prefix and
// shape. Bodies that are one repeated filler character (ghp_xxxx…) are
// documentation, not keys. Anchors are chosen for a rare first byte
// ("yJ" rather than "eyJ"): strings.Index is slow when that byte is common.
func (s *scanner) tokens() {
	t := s.t
	each(t, "A", func(i int) int {
		switch p := t[i:min(len(t), i+4)]; p {
		case "AKIA", "ASIA", "ABIA", "ACCA":
			e := i + 20
			if e > len(t) || !boundary(t, i) || (e < len(t) && isAlnum(t[e])) ||
				!all(t[i+4:e], func(c byte) bool { return isUpper(c) || isDigit(c) }) || filler(t[i+4:e]) {
				return 0
			}
			s.add("aws-access-key-id", i, e)
			s.awsSecretNear(i, e)
			return e
		case "AIza":
			if i > 0 && isB64URL(t[i-1]) {
				return 0
			}
			e := runEnd(t, i+4, isB64URL)
			if e-i == 39 && !filler(t[i+4:e]) {
				s.add("google-api-key", i, e)
			}
			return e // no key starts inside this run
		}
		return 0
	})
	each(t, "_pat_", func(i int) int {
		if i < 6 || t[i-6:i] != "github" {
			return 0
		}
		return s.prefixed("github-token", i-6, i+5, 22, func(c byte) bool { return isAlnum(c) || c == '_' })
	})
	each(t, "gh", func(i int) int {
		if i+4 > len(t) || t[i+3] != '_' || strings.IndexByte("pousr", t[i+2]) < 0 { // ghp_ gho_ ghu_ ghs_ ghr_
			return 0
		}
		return s.prefixed("github-token", i, i+4, 36, isAlnum)
	})
	each(t, "xox", func(i int) int { // xoxb- xoxp- xoxa- xoxr- xoxs-
		if i+5 > len(t) || t[i+4] != '-' || strings.IndexByte("bpars", t[i+3]) < 0 {
			return 0
		}
		return s.prefixed("slack-token", i, i+5, 10, func(c byte) bool { return isAlnum(c) || c == '-' })
	})
	each(t, ".slack.com/", func(i int) int {
		for _, p := range [...]string{"services/", "workflows/", "triggers/"} {
			if j := i + 11; strings.HasSuffix(t[:i], "hooks") && strings.HasPrefix(t[j:], p) {
				j += len(p) // keep the host visible; the path is the secret
				e := runEnd(t, j, func(c byte) bool { return isAlnum(c) || c == '/' || c == '_' })
				if e-j >= 20 && !filler(t[j:e]) {
					s.add("slack-token", j, e)
					return e
				}
			}
		}
		return 0
	})
	each(t, "k-", func(i int) int {
		if i--; i < 0 || t[i] != 's' {
			return 0
		}
		if strings.HasPrefix(t[i:], "sk-ant-") {
			return s.prefixed("anthropic-key", i, i+7, 20, isB64URL)
		}
		// Real OpenAI keys are random mixed-case; this keeps "sk-learn-…" out.
		if !boundary(t, i) {
			return 0
		}
		e := runEnd(t, i+3, isB64URL)
		if b := t[i+3 : e]; len(b) >= 20 && has(b, isUpper) && has(b, isLower) && has(b, isDigit) {
			s.add("openai-key", i, e)
		}
		return e // a key inside this run would have matched from its start
	})
	each(t, "k_live_", func(i int) int { // sk_live_ rk_live_
		if i--; i < 0 || t[i] != 's' && t[i] != 'r' {
			return 0
		}
		return s.prefixed("stripe-key", i, i+8, 16, isAlnum)
	})
	each(t, "yJ", func(i int) int {
		if i == 0 || t[i-1] != 'e' {
			return 0
		}
		return s.jwt(i - 1)
	})
}

// prefixed adds t[i:e] as kind when a prefix ending at b is followed by at
// least n body bytes of the alphabet ok, and returns where to resume.
// A failed body is skipped whole: re-scanning it from every later anchor
// inside would be quadratic, and no key can start inside it.
func (s *scanner) prefixed(kind string, i, b, n int, ok func(byte) bool) int {
	if !boundary(s.t, i) {
		return 0
	}
	e := runEnd(s.t, b, ok)
	if e-b >= n && !filler(s.t[b:e]) {
		s.add(kind, i, e)
	}
	return e
}

// jwt matches header.payload.signature where the header is base64url JSON
// ("eyJ" is `{"`). Unsigned tokens carry no credential and are skipped.
func (s *scanner) jwt(i int) int {
	t := s.t
	if i > 0 && isB64URL(t[i-1]) {
		return 0
	}
	e, segs := i, 0
	for segs < 5 {
		k := runEnd(t, e, isB64URL)
		if k-e < [...]int{10, 4, 16, 1, 1}[segs] {
			break
		}
		e, segs = k, segs+1
		if e+1 >= len(t) || t[e] != '.' || !isB64URL(t[e+1]) || segs == 5 {
			break
		}
		e++
	}
	if segs < 3 {
		return 0
	}
	s.add("jwt", i, e)
	return e
}

// awsSecretNear picks up a bare 40-character secret key pasted on the same
// line as an access key id ("AKIA… / wJalr…"). Mixed case is required so
// that git SHAs and hex digests are not taken for one.
func (s *scanner) awsSecretNear(i, e int) {
	t := s.t
	lo, hi := max(0, i-200), min(len(t), e+200)
	if k := strings.LastIndexByte(t[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	if k := strings.IndexByte(t[e:hi], '\n'); k >= 0 {
		hi = e + k
	}
	for j := lo; j < hi; j++ {
		if !isB64Std(t[j]) {
			continue
		}
		k := runEnd(t, j, isB64Std)
		v := t[j:k]
		if len(v) == 40 && (j == 0 || !isB64Std(t[j-1])) && (k == len(t) || t[k] != '=') &&
			has(v, isUpper) && has(v, isLower) && !filler(v) {
			s.add("aws-secret-access-key", j, k)
		}
		j = k
	}
}

// privateKeys masks whole PEM blocks, header to END line. PEM blocks do not
// nest, so a BEGIN's END is the next END marker; when that marker is missing
// or belongs to another label (a truncated paste) the base64 body is taken.
func (s *scanner) privateKeys() {
	t := s.t
	if !strings.Contains(t, "PRIVATE KEY") {
		return
	}
	nextEnd := -1 // cached: BEGINs are visited in order
	each(t, "-----BEGIN ", func(i int) int {
		h := i + len("-----BEGIN ")
		k := strings.Index(t[h:min(len(t), h+64)], "-----")
		label := t[h : h+max(k, 0)]
		if k < 0 || !strings.Contains(label, "PRIVATE KEY") ||
			!all(label, func(c byte) bool { return isUpper(c) || isDigit(c) || c == ' ' }) {
			return 0
		}
		body := h + k + 5
		if nextEnd < body && nextEnd != len(t) {
			if k := strings.Index(t[body:], "-----END "); k >= 0 {
				nextEnd = body + k
			} else {
				nextEnd = len(t)
			}
		}
		var end int
		if marker := "-----END " + label + "-----"; strings.HasPrefix(t[nextEnd:], marker) {
			end = nextEnd + len(marker)
		} else {
			end = pemBodyEnd(t, body)
		}
		s.add("private-key", i, end)
		return end
	})
}

// pemBodyEnd returns where the body of an unterminated PEM block ends: the
// rest of the header line while it is base64 or "\n" escapes (keys inside
// JSON strings), then whole lines of base64 or RFC 1421 headers, allowing
// blank lines only between them.
func pemBodyEnd(t string, i int) int {
	b64 := func(c byte) bool { return isB64Std(c) || c == '=' || c == '\\' }
	end := runEnd(t, i, b64)
	le := runEnd(t, end, func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' })
	if le < len(t) && t[le] != '\n' {
		return end // more on the header line: take only what looked like body
	}
	for i = le + 1; i < len(t); i = le + 1 {
		le = lineEnd(t, i)
		line := strings.TrimSpace(t[i:le])
		switch {
		case line == "":
		case all(line, b64) || pemHeader(line):
			end = i + strings.Index(t[i:le], line) + len(line)
		default:
			return end
		}
	}
	return end
}

func pemHeader(line string) bool {
	for _, h := range [...]string{"Proc-Type:", "DEK-Info:", "Comment:", "Version:", "Hash:"} {
		if strings.HasPrefix(line, h) {
			return true
		}
	}
	return false
}

// userColon finds the ':' ending the user name, skipping the ':' inside a
// Redact marker that replaced a token used as the user name.
func userColon(u string) int {
	for i := 0; i < len(u); i++ {
		if strings.HasPrefix(u[i:], "[REDACTED:") {
			if k := strings.IndexByte(u[i:], ']'); k >= 0 {
				i += k
				continue
			}
		}
		if u[i] == ':' {
			return i
		}
	}
	return -1
}

// connStrings masks the password of scheme://user:password@host, and a
// user name that is a token (https://TOKEN@github.com/…). The last '@' of
// the authority ends it, since passwords often hold an unescaped '@'.
func (s *scanner) connStrings() {
	t := s.t
	each(t, "://", func(i int) int {
		if i == 0 || !isAlnum(t[i-1]) {
			return 0
		}
		a := i + 3
		e := runEnd(t, a, func(c byte) bool {
			switch c {
			case '"', '\'', '`', '/', '?', '#', '<', '>', '\\':
				return false
			}
			return c > ' '
		})
		at := strings.LastIndexByte(t[a:e], '@')
		if at < 0 {
			return 0
		}
		switch c := userColon(t[a : a+at]); {
		case c >= 0:
			if !placeholder(t[a+c+1 : a+at]) {
				s.add("connection-string-password", a+c+1, a+at)
			}
		case urlToken(t[a : a+at]):
			s.add("url-token", a, a+at)
		}
		return e
	})
}

// urlToken reports a URL user name that is a token rather than a login
// (git, bob, first.last): 20+ bytes of a token alphabet with a digit, and
// either long hex (classic GitHub tokens) or mixed case, as random tokens
// are and user names rarely are.
func urlToken(u string) bool {
	if len(u) < 20 || !all(u, isB64URL) || !has(u, isDigit) || !has(u, isLetter) || filler(u) || placeholder(u) {
		return false
	}
	hex := all(u, func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' })
	return hex && len(u) >= 32 || has(u, isUpper) && has(u, isLower)
}
