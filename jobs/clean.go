package jobs

import (
	"path"
	"regexp"

	"github.com/mneme-ai/mneme"
)

// absPath is an absolute path in a message: a slash at the start of a
// word, not a URL's "//" (whose host and path stay: a URL names a
// service, not this machine's layout).
var absPath = regexp.MustCompile(`(^|[\s"'(=])(/[^/\s"'()][^\s"'()]*)`)

// clean bounds a message or cursor kept in the ledger and cuts absolute
// paths to their last element: the ledger is shown to project-scoped
// tokens, which must not learn the server's file layout.
func clean(s string) string {
	s = absPath.ReplaceAllStringFunc(s, func(m string) string {
		sub := absPath.FindStringSubmatch(m)
		return sub[1] + "…/" + path.Base(sub[2])
	})
	return mneme.ClipMessage(s)
}
