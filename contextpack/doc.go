// Package contextpack builds context packages: the memories that answer a
// query, fitted to a token budget and ready to paste into a prompt. It is
// the one implementation of the use case; the CLI (`mneme context`), the
// MCP tool `context` and `POST /v1/context` only decode, call Build and
// encode.
//
// A package is assembled from a recall whose candidate pool is larger than
// k (max(4k, 50) hits, at most mneme.MaxK): each candidate is compressed
// sentence by sentence to the spans relevant to the query, spans that
// touch are merged, candidates are taken by score while their spans fit the
// budget, and the kept ones are grouped by document or session, each group
// in position or time order. Every retained span is a byte range of its
// record's text, with the sha256 of that text, so a reader can check that
// the package holds nothing but copied text.
package contextpack
