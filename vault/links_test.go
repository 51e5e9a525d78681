package vault_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/vault"
)

// TestHiddenLinkTargets: a vault exported for a caller limited to a
// project and without clearance secret names no record it may not read,
// not even by id in a link.
func TestHiddenLinkTargets(t *testing.T) {
	eng := engine(t)
	const secret, beta, mine, linker = "0192f0c1-6b0e-7c3a-9d2e-00000000000a", "0192f0c1-6b0e-7c3a-9d2e-00000000000b",
		"0192f0c1-6b0e-7c3a-9d2e-00000000000c", "0192f0c1-6b0e-7c3a-9d2e-00000000000d"
	seed(t, eng, []*mneme.Record{
		{ID: secret, Project: "alpha", Text: "the alpha vault PIN is 4417", Sensitivity: mneme.Secret},
		{ID: beta, Project: "beta", Text: "beta's launch plan"},
		{ID: mine, Project: "alpha", Text: "alpha's launch checklist"},
		{ID: linker, Project: "alpha", Text: "summary of the alpha launch", Links: []mneme.Link{
			{Type: mneme.LinkFollows, Target: secret}, {Type: mneme.LinkRelatesTo, Target: beta}, {Type: mneme.LinkDerivedFrom, Target: mine}}},
	})
	scoped := mneme.WithScope(ctx, mneme.Scope{Name: "alpha", Projects: []string{"alpha"}, Clearance: mneme.Internal})
	dir := t.TempDir()
	if _, err := vault.Export(scoped, eng, dir, mneme.Filter{Project: "alpha"}); err != nil {
		t.Fatal(err)
	}
	files := tree(t, dir)
	var linkerNote string
	for _, body := range files {
		for _, id := range []string{secret, beta} {
			if strings.Contains(body, id) {
				t.Fatalf("the vault names hidden record %s:\n%s", id, body)
			}
		}
		if strings.Contains(body, "summary of the alpha launch") {
			linkerNote = body
		}
	}
	if !strings.Contains(linkerNote, "derived_from") || strings.Contains(linkerNote, "relates_to") || strings.Contains(linkerNote, "follows") {
		t.Fatalf("the summary's note keeps only its link to a record alpha may read:\n%s", linkerNote)
	}
}
