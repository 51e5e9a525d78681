package secret

import "testing"

func TestRedactURLs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://user:pass@host:8080/api", "http://REDACTED@host:8080/api"},
		{"https://ghp_token@github.com/o/r", "https://REDACTED@github.com/o/r"},
		{`Post "http://u:p%40ss@127.0.0.1:1/api/embed": refused, and https://a:b@c too`,
			`Post "http://REDACTED@127.0.0.1:1/api/embed": refused, and https://REDACTED@c too`},
		{"http://u:p@ss@host", "http://REDACTED@host"}, // the last '@' ends the user info
		{"http://host/path/@user?x=a@b#c@d", "http://host/path/@user?x=a@b#c@d"},
		{"http://@host", "http://@host"},
		{"no url here, a@b.c and x://", "no url here, a@b.c and x://"},
		{"", ""},
		{"postgres://app:s3cret@db:5432/app?sslmode=require", "postgres://REDACTED@db:5432/app?sslmode=require"},
	} {
		if got := RedactURLs(c.in); got != c.want {
			t.Errorf("RedactURLs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
