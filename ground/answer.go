package ground

import (
	"context"
	"strings"
	"time"

	"github.com/mneme-ai/mneme"
	"github.com/mneme-ai/mneme/contextpack"
)

// AnswerRequest asks to store an answer as verified for the package of
// Request: what `mneme answer put --request FILE` reads and POST
// /v1/answers takes.
type AnswerRequest struct {
	Request           contextpack.Request `json:"request"`
	Answer            string              `json:"answer"`
	VerificationToken string              `json:"verification_token"`
	Provider          string              `json:"provider"`
	Model             string              `json:"model"`
	ModelVersion      string              `json:"model_version"`
}

// AnswerResult says whether the answer was stored and why: its hashes and
// the check's verdict, never the token nor the answer's text.
type AnswerResult struct {
	Stored        bool                    `json:"stored"`
	AnswerSHA256  string                  `json:"answer_sha256"`
	PackageSHA256 string                  `json:"package_sha256"`
	Scope         contextpack.AnswerScope `json:"answer_scope"`
	Supported     bool                    `json:"supported"`
	Score         float64                 `json:"score"`
	Threshold     float64                 `json:"threshold"`
	Reasons       []string                `json:"reasons"`
	Note          string                  `json:"note,omitempty"`
}

// Validate checks r at clearance and returns its package's recall and
// budget and the proof the answer is kept under: surfaces call it to
// refuse bad input before they open a store.
func (r *AnswerRequest) Validate(now time.Time, clearance mneme.Sensitivity) (mneme.Query, int, *contextpack.AnswerProof, error) {
	proof, err := r.prepare()
	if err != nil {
		return mneme.Query{}, 0, nil, err
	}
	q, budget, err := r.Request.Recall(now, clearance)
	if err != nil {
		return mneme.Query{}, 0, nil, mneme.Prefix("request", err)
	}
	return q, budget, proof, nil
}

// PutAnswer rebuilds the package of r's request, checks r's answer
// against it (with em, as Check), and stores the answer as verified only
// when the check finds every sentence supported.
func PutAnswer(ctx context.Context, eng *mneme.Engine, em Embedder, embedderID string, r AnswerRequest, clearance mneme.Sensitivity) (*AnswerResult, error) {
	q, budget, proof, err := r.Validate(eng.Now(), clearance)
	if err != nil {
		return nil, err
	}
	pkg, err := contextpack.AssembleLanes(ctx, eng, q, budget, r.Request.Reusable)
	if err != nil {
		return nil, err
	}
	verdict, err := Check(ctx, em, embedderID, Request{Package: pkg, Answer: r.Answer})
	if err != nil {
		return nil, err
	}
	res := &AnswerResult{PackageSHA256: pkg.SHA256(), Scope: proof.Scope, Supported: verdict.Supported,
		Score: verdict.Score, Threshold: verdict.Threshold, Reasons: verdict.Reasons}
	res.AnswerSHA256 = mneme.TextSHA256(r.Answer)
	switch {
	case !verdict.Supported:
		res.Note = "not stored: the package does not support every sentence of the answer (mneme ground shows which)"
	case pkg.Degraded:
		res.Note = "not stored: the package is degraded (" + pkg.DegradedReason + ")"
	default:
		_, res.Stored = contextpack.KeepAnswer(ctx, eng, q, pkg, proof, r.Answer, verdict.Score)
		if !res.Stored {
			res.Note = "not stored: the cache keeps no verified answers (config.json cache)"
		}
	}
	return res, nil
}

// prepare validates r: the context request (without a proof of its own),
// a non-empty answer and token, and a scope with every part.
func (r *AnswerRequest) prepare() (*contextpack.AnswerProof, error) {
	if r.Request.VerificationToken != nil || r.Request.AnswerScope != "" {
		return nil, mneme.Invalid("request: leave verification_token and answer_scope out of the context request: they belong to the answer")
	}
	if strings.TrimSpace(r.Answer) == "" {
		return nil, mneme.Invalid("answer is empty: give the answer text to store")
	}
	if len(r.Answer) > MaxAnswerBytes {
		return nil, mneme.Invalid("answer is %d bytes, over the limit of %d", len(r.Answer), MaxAnswerBytes)
	}
	if err := mneme.ValidateText(r.Answer); err != nil {
		return nil, mneme.Prefix("answer", err)
	}
	if strings.TrimSpace(r.VerificationToken) == "" {
		return nil, mneme.Invalid("verification_token is empty: give the token a later context request will prove")
	}
	sc := contextpack.AnswerScope{Provider: r.Provider, Model: r.Model, Version: r.ModelVersion}
	if err := sc.Check(); err != nil {
		return nil, err
	}
	return &contextpack.AnswerProof{Token: r.VerificationToken, Scope: sc}, nil
}
