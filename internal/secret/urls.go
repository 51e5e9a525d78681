package secret

import "strings"

// RedactURLs hides the user info of every URL in s: scheme://user:pass@host
// becomes scheme://REDACTED@host, the rest of s unchanged. A provider's URL
// (embedder.url, llm.url) may carry a password for basic authentication;
// whatever shows, stores or logs such a URL, or a message naming it, passes
// it through here first.
func RedactURLs(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; ; {
		k := strings.Index(s[i:], "://")
		if k < 0 {
			break
		}
		start := i + k + 3
		end := start
		for end < len(s) && !authorityStop[s[end]] {
			end++
		}
		if at := strings.LastIndexByte(s[start:end], '@'); at > 0 {
			b.WriteString(s[done:start])
			b.WriteString(redactedUserinfo)
			done = start + at
		}
		i = end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

const redactedUserinfo = "REDACTED"

// authorityStop marks the bytes that end a URL's authority (user info,
// host and port): the path, query and fragment, and what ends a URL in
// text (blanks, quotes, brackets).
var authorityStop = func() (stop [256]bool) {
	for c := range ' ' + 1 {
		stop[c] = true
	}
	for _, c := range []byte("/?#\"'`<>()[]{}\\,;") {
		stop[c] = true
	}
	return stop
}()
