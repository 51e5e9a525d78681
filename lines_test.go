package mneme_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
)

func TestDecodeLines(t *testing.T) {
	recs, lines, err := mneme.DecodeLines([]byte("{\"text\":\"a\"}\n\n  \n{\"text\":\"b\",\"project\":\"p\"}"))
	if err != nil || len(recs) != 2 || recs[1].Text != "b" || recs[1].Project != "p" || lines[0] != 1 || lines[1] != 4 {
		t.Fatalf("got %v %v %v", recs, lines, err)
	}
	for _, c := range []struct{ in, want string }{
		{"", "no records"},
		{"\n \n", "no records"},
		{"{\"text\":\"a\"}\n{\"text\":\"b\",\"colour\":1}\n", "line 2: "},
		{"{\"text\":\"a\"}\nnot json\n", "line 2: "},
		{"{\"text\":\"a\"}\n" + strings.Repeat("x", 4<<20), "line 2: "},
	} {
		if _, _, err := mneme.DecodeLines([]byte(c.in)); mneme.ErrorCode(err) != mneme.EINVALID || !strings.Contains(mneme.ErrorMessage(err), c.want) {
			t.Errorf("%.40q: %v, want EINVALID %q", c.in, err, c.want)
		}
	}
}
