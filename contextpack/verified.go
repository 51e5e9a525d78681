package contextpack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
)

// A verified answer is an answer a caller checked against a package and
// stored (see ground.PutAnswer): a context request that proves the same
// verification token, names the same answer scope and builds the same
// package gets it back. The token itself is never kept nor shown: the key
// holds its sha256, hashed again with the rest.

// AnswerScope names what wrote an answer: provider/model/version.
type AnswerScope struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Version  string `json:"model_version"`
}

// ParseAnswerScope reads "provider/model/version"; every part is needed.
// The model may hold slashes (provider/org/model/version).
func ParseAnswerScope(s string) (AnswerScope, error) {
	i, j := strings.Index(s, "/"), strings.LastIndex(s, "/")
	if i < 0 || i == j {
		return AnswerScope{}, mneme.Invalid("answer scope %q needs three parts: provider/model/version", mneme.Clip(s))
	}
	sc := AnswerScope{Provider: s[:i], Model: s[i+1 : j], Version: s[j+1:]}
	return sc, sc.Check()
}

// Check refuses a scope with a part missing.
func (s AnswerScope) Check() error {
	if strings.TrimSpace(s.Provider) == "" || strings.TrimSpace(s.Model) == "" || strings.TrimSpace(s.Version) == "" {
		return mneme.Invalid("answer scope %q has a part missing: give provider/model/version, each non-empty", mneme.Clip(s.String()))
	}
	return nil
}

func (s AnswerScope) String() string { return s.Provider + "/" + s.Model + "/" + s.Version }

// AnswerProof is what a caller shows to get a verified answer back.
type AnswerProof struct {
	Token string
	Scope AnswerScope
}

// Proof checks the request's verification token and answer scope: nil
// when it gives neither, an error when it gives one without the other or
// either empty.
func (r *Request) Proof() (*AnswerProof, error) {
	if r.VerificationToken == nil && r.AnswerScope == "" {
		return nil, nil
	}
	switch {
	case r.VerificationToken == nil:
		return nil, mneme.Invalid("answer_scope needs verification_token: the token the answer was verified with")
	case strings.TrimSpace(*r.VerificationToken) == "":
		return nil, mneme.Invalid("verification_token is empty: give the token the answer was verified with")
	case r.AnswerScope == "":
		return nil, mneme.Invalid("verification_token needs answer_scope: provider/model/version of what wrote the answer")
	}
	sc, err := ParseAnswerScope(r.AnswerScope)
	if err != nil {
		return nil, err
	}
	return &AnswerProof{Token: *r.VerificationToken, Scope: sc}, nil
}

// VerifiedAnswer is a stored answer as a context package shows it: its
// hashes and metadata always, its text only on a hit.
type VerifiedAnswer struct {
	Status        string      `json:"status"` // hit or miss
	Answer        string      `json:"answer,omitempty"`
	AnswerSHA256  string      `json:"answer_sha256,omitempty"`
	PackageSHA256 string      `json:"package_sha256"`
	Scope         AnswerScope `json:"answer_scope"`
	Score         float64     `json:"groundedness,omitempty"` // the check's score when it was stored
	VerifiedAt    *time.Time  `json:"verified_at,omitempty"`
}

// SHA256 is the hex sha256 of what the package says: its text and the
// records it cites.
func (p *Package) SHA256() string {
	ids := make([]string, len(p.Citations))
	for i, c := range p.Citations {
		ids[i] = c.ID
	}
	b, _ := json.Marshal(struct {
		Text string   `json:"text"`
		IDs  []string `json:"ids"`
	}{p.Text, ids})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// answerKey is a verified answer's key besides the caller's scope and the
// project's generation.
func answerKey(pkg *Package, proof *AnswerProof) any {
	t := sha256.Sum256([]byte(proof.Token))
	return struct {
		Token   string      `json:"token_sha256"`
		Scope   AnswerScope `json:"answer_scope"`
		Package string      `json:"package_sha256"`
	}{hex.EncodeToString(t[:]), proof.Scope, pkg.SHA256()}
}

// FindAnswer looks up the answer verified for pkg (built for q) under
// proof, and shows it in pkg.
func FindAnswer(ctx context.Context, eng *mneme.Engine, q mneme.Query, pkg *Package, proof *AnswerProof) {
	if proof == nil {
		return
	}
	if pkg.Cache == nil {
		pkg.Cache = mneme.CacheStatus{}
	}
	var got VerifiedAnswer
	_, hit := eng.CacheLookup(ctx, pkg.Cache, mneme.CacheVerifiedAnswer, q.Filter.Project, answerKey(pkg, proof), &got)
	if !hit {
		pkg.VerifiedAnswer = &VerifiedAnswer{Status: mneme.CacheMiss, PackageSHA256: pkg.SHA256(), Scope: proof.Scope}
		return
	}
	got.Status = mneme.CacheHit
	pkg.VerifiedAnswer = &got
}

// KeepAnswer stores answer as verified for pkg (built for q) under proof,
// and returns it as FindAnswer will show it. The caller has checked it
// (ground.PutAnswer). ok is false when the cache keeps no answers.
func KeepAnswer(ctx context.Context, eng *mneme.Engine, q mneme.Query, pkg *Package, proof *AnswerProof, answer string, score float64) (VerifiedAnswer, bool) {
	h := sha256.Sum256([]byte(answer))
	now := eng.Now()
	v := VerifiedAnswer{Answer: answer, AnswerSHA256: hex.EncodeToString(h[:]), PackageSHA256: pkg.SHA256(), Scope: proof.Scope, Score: score, VerifiedAt: &now}
	var old VerifiedAnswer
	key, _ := eng.CacheLookup(ctx, nil, mneme.CacheVerifiedAnswer, q.Filter.Project, answerKey(pkg, proof), &old)
	if key == "" {
		return v, false
	}
	eng.CacheKeep(ctx, mneme.CacheVerifiedAnswer, key, v, nil)
	return v, true
}

// AssembleFor assembles the package of req (q and budget from
// req.Recall) and, when req proves a verification token, looks up its
// verified answer.
func AssembleFor(ctx context.Context, eng *mneme.Engine, req Request, q mneme.Query, budget int) (*Package, error) {
	proof, err := req.Proof()
	if err != nil {
		return nil, err
	}
	pkg, err := AssembleLanes(ctx, eng, q, budget, req.Reusable)
	if err == nil {
		FindAnswer(ctx, eng, q, pkg, proof)
	}
	return pkg, err
}
