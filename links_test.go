package mneme_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

// TestLinkRequestCheck: the refusals a surface gives before it opens a
// store, each naming what is wrong.
func TestLinkRequestCheck(t *testing.T) {
	const a, b = "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5e", "0192f0c1-6b0e-7c3a-9d2e-5f1a2b3c4d5f"
	for _, c := range []struct {
		req    mneme.LinkRequest
		unlink bool
		want   string // "" valid
	}{
		{mneme.LinkRequest{From: a, To: b, Rel: "relates_to"}, false, ""},
		{mneme.LinkRequest{From: a, To: b, Rel: "supersedes"}, false, ""},
		{mneme.LinkRequest{From: a, To: b}, true, ""},
		{mneme.LinkRequest{From: a, To: b}, false, "a link needs a relation"},
		{mneme.LinkRequest{From: a, To: b, Rel: "Relates_To"}, false, `relation "Relates_To" is not valid`},
		{mneme.LinkRequest{From: a, To: b, Rel: "inspired_by"}, true, `relation "inspired_by" is not valid`},
		{mneme.LinkRequest{From: "nope", To: b, Rel: "follows"}, false, `"nope" is not a record id`},
		{mneme.LinkRequest{From: a, To: strings.Repeat("x", 1000), Rel: "follows"}, false, "link target"},
		{mneme.LinkRequest{From: a, To: a, Rel: "follows"}, false, "cannot link to itself"},
	} {
		err := c.req.Check(c.unlink)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.req, err)
		case c.want != "" && (mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v = %v, want EINVALID with %q", c.req, err, c.want)
		case err != nil && len(err.Error()) > 300:
			t.Errorf("%+v: the message quotes the input whole: %d bytes", c.req, len(err.Error()))
		}
	}
}
