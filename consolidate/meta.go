package consolidate

import (
	"encoding/json"
	"strings"

	"github.com/mneme-ai/mneme"
)

// summaryMeta is what a summary record keeps about how it was made, under
// meta.summary: enough to answer a repeated call without writing.
type summaryMeta struct {
	Strategy       Strategy    `json:"strategy"`
	Provider       string      `json:"provider,omitempty"`
	Model          string      `json:"model,omitempty"`
	PromptVersion  string      `json:"prompt_version,omitempty"`
	FallbackReason string      `json:"fallback_reason,omitempty"`
	Fingerprint    string      `json:"fingerprint"` // the idempotency key
	Sources        int         `json:"sources"`
	CitedIDs       []string    `json:"cited_ids,omitempty"`
	Truncated      bool        `json:"truncated,omitempty"`
	Filters        UsedFilters `json:"filters"`
}

func metaFor(res *Response, fingerprint string, cited []string) json.RawMessage {
	m := summaryMeta{Strategy: res.Strategy, Provider: res.Provider, Model: res.Model, PromptVersion: res.PromptVersion,
		FallbackReason: res.FallbackReason, Fingerprint: fingerprint, Sources: len(res.SourceIDs), CitedIDs: cited,
		Truncated: res.Truncated, Filters: res.UsedFilters}
	b, _ := json.Marshal(map[string]summaryMeta{"summary": m}) // plain data: it encodes
	return b
}

// metaOf reads a stored summary's meta (zero when it has none).
func metaOf(r *mneme.Record) summaryMeta {
	var m struct {
		Summary summaryMeta `json:"summary"`
	}
	json.Unmarshal(r.Meta, &m) //nolint:errcheck // a record without it is not ours: its zero fingerprint never matches
	return m.Summary
}

// from answers a repeated call with the stored summary: nothing written.
func (res *Response) from(old *mneme.Record) *Response {
	m := metaOf(old)
	text := body(old)
	res.RecordID, res.Summary, res.Words, res.Created = old.ID, text, len(strings.Fields(text)), false
	res.CitedIDs = m.CitedIDs
	return res
}
